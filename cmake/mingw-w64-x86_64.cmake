# CMake toolchain for the Windows x64 build (parquet.dll) cross-compiled on Debian with
# mingw-w64's posix-threads compilers (Debian package g++-mingw-w64-x86-64-posix):
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake ...
# Used by scripts/build_mingw_deps.sh (the codec and crypto libraries) and
# scripts/build_windows.sh (the extension and the test shell).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(MINGW_TRIPLE x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${MINGW_TRIPLE}-windres)
set(CMAKE_AR ${MINGW_TRIPLE}-gcc-ar-posix CACHE FILEPATH "")
set(CMAKE_RANLIB ${MINGW_TRIPLE}-gcc-ranlib-posix CACHE FILEPATH "")
# Libraries and headers only from the target's sysroot and the prefixes given on the
# command line (CMAKE_FIND_ROOT_PATH), never the build machine's /usr.
# STATIC_DEPS_PREFIX: the libraries scripts/build_mingw_deps.sh built, headers included.
set(CMAKE_FIND_ROOT_PATH /usr/${MINGW_TRIPLE} ${STATIC_DEPS_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
