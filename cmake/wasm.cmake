# The WebAssembly build (`make wasm`, scripts/build_wasm.sh; docs/wasm.md): included by
# CMakeLists.txt under emscripten's toolchain, after parquet_format and parquet_ext_objects.
# SQLite's amalgamation (PQ_SQLITE_AMALGAMATION: the newest SQLite of the matrix) is
# compiled in, with the extension registered for every connection
# (wasm/register_extension.c). Two programs:
#   sqlite-parquet.mjs/.wasm   the ES module the JavaScript API (wasm/api.mjs) wraps: browser,
#                              Worker and Node 20+
#   sql_test_runner.js/.wasm   tests/sql_test_runner.cc for Node, with the host's file system
#                              (NODERAWFS): the wasm suite runs the sql suite through it
#   differential_tests.js/.wasm  tests/differential the same way
set(PQ_SQLITE_AMALGAMATION "" CACHE PATH "The folder of sqlite3.c and sqlite3.h")
if(NOT EXISTS ${PQ_SQLITE_AMALGAMATION}/sqlite3.c)
  message(FATAL_ERROR "-DPQ_SQLITE_AMALGAMATION must name the folder of sqlite3.c (scripts/build_wasm.sh)")
endif()

# Close to the version matrix's SQLite (scripts/setup_sqlite_versions.sh), without threads.
add_library(pq_wasm_sqlite OBJECT ${PQ_SQLITE_AMALGAMATION}/sqlite3.c ${PROJECT_SOURCE_DIR}/wasm/register_extension.c)
target_include_directories(pq_wasm_sqlite PUBLIC ${PQ_SQLITE_AMALGAMATION})
target_compile_options(pq_wasm_sqlite PRIVATE -w)
target_compile_definitions(pq_wasm_sqlite PRIVATE SQLITE_THREADSAFE=0 SQLITE_ENABLE_COLUMN_METADATA
  SQLITE_ENABLE_DBSTAT_VTAB SQLITE_ENABLE_MATH_FUNCTIONS SQLITE_LIKE_DOESNT_MATCH_BLOBS
  SQLITE_MAX_VARIABLE_NUMBER=250000 SQLITE_SECURE_DELETE SQLITE_USE_URI=1 SQLITE_DEFAULT_MEMSTATUS=0
  SQLITE_OMIT_SHARED_CACHE)

set(PQ_WASM_COMMON_LINK -fwasm-exceptions -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB -sWASM_BIGINT=1
    -sTOTAL_STACK=4MB "SHELL:--pre-js ${PROJECT_SOURCE_DIR}/wasm/host_http.js")

set(PQ_WASM_EXPORTS _malloc _free _sqlite3_open_v2 _sqlite3_close_v2 _sqlite3_prepare_v2 _sqlite3_step
    _sqlite3_finalize _sqlite3_reset _sqlite3_column_count _sqlite3_column_name _sqlite3_column_type
    _sqlite3_column_int64 _sqlite3_column_double _sqlite3_column_text _sqlite3_column_bytes
    _sqlite3_column_blob _sqlite3_bind_parameter_count _sqlite3_bind_parameter_index _sqlite3_bind_null
    _sqlite3_bind_int64 _sqlite3_bind_double _sqlite3_bind_text _sqlite3_bind_blob _sqlite3_errmsg
    _sqlite3_extended_errcode _sqlite3_changes _sqlite3_deserialize _sqlite3_malloc64 _sqlite3_libversion
    _sqlite3_sql _sqlite3_interrupt)
list(JOIN PQ_WASM_EXPORTS "," PQ_WASM_EXPORT_LIST)
add_executable(sqlite_parquet_wasm $<TARGET_OBJECTS:pq_wasm_sqlite> $<TARGET_OBJECTS:parquet_ext_objects>)
set_target_properties(sqlite_parquet_wasm PROPERTIES OUTPUT_NAME sqlite-parquet SUFFIX .mjs
  LINK_DEPENDS ${PROJECT_SOURCE_DIR}/wasm/host_http.js)
target_link_libraries(sqlite_parquet_wasm PRIVATE parquet_format)
target_link_options(sqlite_parquet_wasm PRIVATE ${PQ_WASM_COMMON_LINK} -sMODULARIZE=1 -sEXPORT_ES6=1
  -sEXPORT_NAME=createSqliteParquet -sENVIRONMENT=web,worker,node -sFORCE_FILESYSTEM=1 -lworkerfs.js
  "-sEXPORTED_FUNCTIONS=${PQ_WASM_EXPORT_LIST}"
  "-sEXPORTED_RUNTIME_METHODS=FS,WORKERFS,UTF8ToString,stringToUTF8,lengthBytesUTF8,getValue,setValue,HEAPU8")

add_executable(sql_test_runner ${PROJECT_SOURCE_DIR}/tests/sql_test_runner.cc $<TARGET_OBJECTS:pq_wasm_sqlite>
  $<TARGET_OBJECTS:parquet_ext_objects>)
target_include_directories(sql_test_runner PRIVATE ${PROJECT_SOURCE_DIR} ${PQ_SQLITE_AMALGAMATION})
target_link_libraries(sql_test_runner PRIVATE parquet_format)
target_compile_definitions(sql_test_runner PRIVATE PQ_NO_THREADS)  # skips "onlyif threads" records
set_target_properties(sql_test_runner PROPERTIES SUFFIX .js LINK_DEPENDS ${PROJECT_SOURCE_DIR}/wasm/node_binary.js)
# Linked at -O0 (the objects are optimised already): binaryen's -O2 pass over a test
# program took minutes of a loaded machine's time.
target_link_options(sql_test_runner PRIVATE ${PQ_WASM_COMMON_LINK} -O0 -sENVIRONMENT=node -sNODERAWFS=1
  -sEXIT_RUNTIME=1 "SHELL:--pre-js ${PROJECT_SOURCE_DIR}/wasm/node_binary.js")

# tests/differential for Node likewise: the extension linked in (PQ_LINKED_EXTENSION).
add_executable(differential_tests ${PROJECT_SOURCE_DIR}/tests/differential/differential_test.cc
  $<TARGET_OBJECTS:pq_wasm_sqlite> $<TARGET_OBJECTS:parquet_ext_objects>)
target_include_directories(differential_tests PRIVATE ${PROJECT_SOURCE_DIR} ${PQ_SQLITE_AMALGAMATION})
target_compile_definitions(differential_tests PRIVATE PQ_LINKED_EXTENSION)
target_link_libraries(differential_tests PRIVATE parquet_format)
set_target_properties(differential_tests PROPERTIES SUFFIX .js LINK_DEPENDS ${PROJECT_SOURCE_DIR}/wasm/node_binary.js)
target_link_options(differential_tests PRIVATE ${PQ_WASM_COMMON_LINK} -O0 -sENVIRONMENT=node -sNODERAWFS=1
  -sEXIT_RUNTIME=1 "SHELL:--pre-js ${PROJECT_SOURCE_DIR}/wasm/node_binary.js")
