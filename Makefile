# Top-level commands of sqlite-parquet (see README.md): install dependencies, build with
# CMake into build/ (Release) and build-asan/ (ASan+UBSan), run the demo and the tests.
# `make test` runs every suite in both builds, the version matrix (SQLITE_MATRIX), the dist
# suite (the artefacts of `make dist`) and the runtime suite under ThreadSanitizer
# (build-tsan/); its last line is "N passed, M failed".

SHELL := /bin/bash
JOBS ?= 2
BUILD ?= build
ASAN_BUILD ?= build-asan
# When this make began (epoch seconds): make test's first step is timed from it.
TEST_STARTED := $(shell date +%s)
TSAN_BUILD ?= build-tsan
CLANG_BUILD ?= build-clang
# The Windows x64 build (mingw-w64; scripts/build_windows.sh), shared by the windows suite
# and `make dist`.
WINDOWS_BUILD ?= build-windows
# Warnings are errors in CI (for the Release build; GCC's warnings under -fsanitize have
# false positives, so the sanitizer build is not a warning gate).
WERROR ?= $(if $(filter true 1 yes,$(CI)),ON,OFF)
LOGDIR := $(BUILD)/test-logs
SAMPLE := examples/sample.parquet
DEMO_SQL ?= SELECT * FROM sample LIMIT 10;
CMAKE_CONFIGURE := cmake --log-level=WARNING -S .
# The version matrix (docs/sqlite-versions.md): besides the system SQLite (every suite,
# both builds), the Release build runs MATRIX_SUITES against each of these, built once by
# scripts/setup_sqlite_versions.sh into SQLITE_VERSIONS_DIR; ASAN_MATRIX runs the same suites
# in the ASan build against the oldest and the newest (3.52.0, whose behaviour 3.53.2 shares,
# only in Release: about 90 s of the 25-minute budget). 3.31.1, 3.34.1 and 3.37.2 (Ubuntu
# 20.04's, Debian 11's, Ubuntu 22.04's) run the paths taken below 3.38 (no sqlite3_vtab_in),
# 3.38.2 the first with it. On 2 cores: building the eight SQLite versions ~4 min (the five
# before measured 2.5; once, cached), MATRIX_SUITES ~20 s per version in Release (3.31.1 to
# 3.37.2 measured 40-75 s each alone) and ~60-90 s in ASan; the remote suite (60-100 s a
# version since its 10,000-object hive dataset and the metadata cache's new processes) and
# the lake suite (Delta and Iceberg tables of ../shared/lake and the lake suite's synthetic
# ones, 50-60 s) run against REMOTE_MATRIX only: the oldest (the paths below 3.38) and the
# newest, the system's 3.40.1 in between. scripts/run_matrix.sh runs JOBS versions at a time.
SQLITE_MATRIX ?= 3.31.1 3.34.1 3.37.2 3.38.2 3.46.1 3.52.0 3.53.2
MATRIX_SUITES ?= sql differential runtime conformance
REMOTE_MATRIX ?= 3.31.1 3.53.2
ASAN_MATRIX ?= 3.31.1 3.53.2
ASAN_MATRIX_SUITES ?= sql differential runtime conformance
# The runtime suite's two filesystem stress cases (a 20-second race of directories swapped
# for links under overwrite=1, and 1,500 partitions under a descriptor limit: about 30 s a
# run, most of the suite) test parquet_copy against the operating system through the same
# SQLite calls on every version: they run once per build, on the system SQLite, not again
# for each version of the matrix (a doctest -tce filter).
MATRIX_RUNTIME_EXCLUDE ?= overwrite=1 with partition_by deletes the old tree*,parquet_copy holds a bounded number of descriptors*
export SQLITE_VERSIONS_DIR ?= $(abspath $(BUILD))/sqlite-versions

MAKEFLAGS += --no-print-directory
.NOTPARALLEL:
.PHONY: all help deps build build-asan build-tsan build-clang test-clang demo test test-asan test-tsan matrix run-matrix sqlite-versions unit sql differential conformance lake interop runtime hosts remote sqlite-api layering fuzz clean dist test-dist wasm test-wasm

all: build

help:
	@echo "make build       install missing packages, build $(BUILD)/ (Release)"
	@echo "make demo        build, then query $(SAMPLE) with the sqlite3 shell"
	@echo "make test        every suite in $(BUILD)/ and $(ASAN_BUILD)/ (ASan+UBSan)"
	@echo "make test-asan   every suite in $(ASAN_BUILD)/ only"
	@echo "make test-tsan   the runtime suite (threads) in $(TSAN_BUILD)/ (ThreadSanitizer)"
	@echo "make test-clang  unit and sql suites in $(CLANG_BUILD)/ (clang, LLVM's libc++, warnings as errors)"
	@echo "make matrix      MATRIX_SUITES in $(BUILD)/ against each SQLite of SQLITE_MATRIX ($(SQLITE_MATRIX))"
	@echo "make unit | sql | differential | conformance | lake | interop | runtime | hosts | remote | sqlite-api | layering   one suite in $(BUILD)/"
	@echo "make fuzz        libFuzzer on every fuzz target for FUZZ_SECONDS each (default 60), in $(FUZZ_BUILD)/"
	@echo "make dist        dist/: the self-contained parquet.so, the Python wheel, the npm package"
	@echo "make wasm        $(WASM_BUILD)/: SQLite + the extension for browsers and Node (WebAssembly, emscripten)"
	@echo "make test-wasm   make wasm, then the wasm suite (Node and headless Chromium)"
	@echo "make test-dist   make dist, then test those three (tests/dist/run.sh)"
	@echo "make clean       remove $(BUILD)/ and $(ASAN_BUILD)/"

deps:
	@bash scripts/install_deps.sh

RELEASE_CONFIGURE = $(CMAKE_CONFIGURE) -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DSANITIZE=OFF -DWERROR=$(WERROR)
build: deps
	@$(RELEASE_CONFIGURE)
	@cmake --build $(BUILD) -j $(JOBS)

ASAN_COMPILE = $(CMAKE_CONFIGURE) -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DSANITIZE=ON -DWERROR=OFF \
  && cmake --build $(ASAN_BUILD) -j $(JOBS)
build-asan: deps
	@$(ASAN_COMPILE)

# ThreadSanitizer: only the extension and the runtime tests (its concurrency test).
TSAN_COMPILE = $(CMAKE_CONFIGURE) -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DTSAN=ON -DWERROR=OFF \
  && cmake --build $(TSAN_BUILD) -j $(JOBS) --target parquet runtime_tests
build-tsan: deps
	@$(TSAN_COMPILE)

# The portable-source build (README.md, "Install"): clang with LLVM's libc++ instead of
# GCC's libstdc++, as macOS and the BSDs compile, warnings always errors. Only what the unit
# and sql suites need (about 4 minutes cold on 2 cores, seconds with ccache).
CLANG_COMPILE = $(CMAKE_CONFIGURE) -B $(CLANG_BUILD) -DCMAKE_BUILD_TYPE=Release -DSANITIZE=OFF -DWERROR=ON \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS=-stdlib=libc++ \
  -DCMAKE_EXE_LINKER_FLAGS=-stdlib=libc++ -DCMAKE_MODULE_LINKER_FLAGS=-stdlib=libc++ \
  && cmake --build $(CLANG_BUILD) -j $(JOBS) --target parquet unit_tests sql_test_runner
# The WebAssembly build (docs/wasm.md): Debian's emscripten, the codecs and OpenSSL built for
# wasm32 from Debian's sources and cached outside the build folder (~/.cache/sqlite-parquet,
# keyed by their inputs; minutes the first time), the newest SQLite of SQLITE_MATRIX with the
# extension linked in; the npm package's files in $(WASM_BUILD)/pkg (linked as
# examples/web/pkg for the demo page).
WASM_BUILD ?= build-wasm
WASM_COMPILE = bash scripts/install_deps.sh wasm && JOBS=$(JOBS) WERROR=ON bash scripts/build_wasm.sh $(WASM_BUILD) \
  && ln -sfn $(abspath $(WASM_BUILD))/pkg examples/web/pkg
# The Windows build of `make test`, compiled in the background while the Release suites run
# (its packages installed first, in the foreground: apt takes one caller at a time); the
# windows suite itself reports a failure of it (it builds again, incrementally).
WINDOWS_COMPILE = bash scripts/build_windows.sh $(WINDOWS_BUILD)
build-clang: deps
	@bash scripts/install_deps.sh clang
	@$(CLANG_COMPILE)

test-clang: build-clang
	@rm -rf $(LOGDIR)
	@SUITE_LANES=$(JOBS) bash scripts/run_tests.sh $(LOGDIR) $(CLANG_BUILD) clang unit sql
	@bash scripts/summarize_tests.sh $(LOGDIR)

demo: build
	@if [ ! -f $(SAMPLE) ]; then \
	  if [ ! -x $(BUILD)/make_sample ]; then \
	    echo "demo: $(SAMPLE) is missing and tools/make_sample.cc is not there to make it" >&2; \
	    exit 1; \
	  fi; \
	  mkdir -p $(dir $(SAMPLE)) && $(BUILD)/make_sample $(SAMPLE); \
	fi
	@if [ ! -f $(BUILD)/parquet.so ]; then \
	  echo "demo: $(BUILD)/parquet.so was not built (no ext/*.cc yet?)" >&2; exit 1; \
	fi
	sqlite3 -cmd '.load $(if $(filter /%,$(BUILD)),,./)$(BUILD)/parquet' -cmd '.mode box' :memory: \
	  "CREATE VIRTUAL TABLE sample USING parquet('$(SAMPLE)');" \
	  "$(DEMO_SQL)" </dev/null

# Builds every SQLite of the matrix (cached; run_tests.sh and tests/hosts also build the one
# they need on demand).
sqlite-versions:
	@bash scripts/setup_sqlite_versions.sh $(SQLITE_VERSIONS_DIR)

# A version that cannot be built fails its own suites (run_tests.sh), not the whole run.
# The ASan build compiles (niced, scripts/background_build.sh) while the Release suites run,
# and the TSan build while the ASan suites run: the suites are mostly single-threaded.
test: build
	@rm -rf $(LOGDIR)
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "Release build"
	@bash scripts/setup_sqlite_versions.sh $(SQLITE_VERSIONS_DIR) || echo "test: not every SQLite of the matrix could be built"
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "SQLite versions of the matrix"
	@BACKGROUND_BUILD_OWNER=$$PPID bash scripts/background_build.sh start $(LOGDIR) asan bash -c '$(ASAN_COMPILE)'
	@bash scripts/install_deps.sh windows
	@bash scripts/run_tests.sh $(LOGDIR) $(BUILD) release sources
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "install the Windows toolchain, sources suite"
	@BACKGROUND_BUILD_OWNER=$$PPID bash scripts/background_build.sh start $(LOGDIR) windows bash -c '$(WINDOWS_COMPILE)'
	@SUITE_LANES=$(JOBS) SKIP_SUITES=windows bash scripts/run_tests.sh $(LOGDIR) $(BUILD) release
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "Release suites"
	@$(MAKE) --no-print-directory run-matrix
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "version matrix"
	@bash scripts/background_build.sh wait $(LOGDIR) windows || true
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "waiting for the Windows build"
	@bash scripts/install_deps.sh wasm
	@BACKGROUND_BUILD_OWNER=$$PPID bash scripts/background_build.sh start $(LOGDIR) wasm bash -c '$(WASM_COMPILE)'
	@# The windows suite (wine, one thread) runs beside `make dist` and the dist suite; its
	@# output is printed once they are done.
	@WINDOWS_BUILD=$(WINDOWS_BUILD) setsid bash scripts/run_tests.sh $(LOGDIR) $(BUILD) release windows \
	  >$(LOGDIR)/windows-console.txt 2>&1 </dev/null & windows=$$!; \
	trap 'pkill -TERM -s '$$windows' 2>/dev/null' EXIT; \
	WASM_BACKGROUND_LOGDIR=$(LOGDIR) $(MAKE) --no-print-directory dist || echo "make dist failed: the dist suite reports it"; \
	DIST_BUILD=$(DIST_BUILD) bash scripts/run_tests.sh $(LOGDIR) $(BUILD) release dist; \
	wait $$windows; cat $(LOGDIR)/windows-console.txt; rm -f $(LOGDIR)/windows-console.txt
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "install emscripten, make dist, dist suite; windows suite beside them"
	@bash scripts/background_build.sh wait $(LOGDIR) wasm || true
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "waiting for the wasm build"
	@WASM_BUILD=$(WASM_BUILD) bash scripts/run_tests.sh $(LOGDIR) $(BUILD) release wasm
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "wasm suite"
	@bash scripts/background_build.sh wait $(LOGDIR) asan
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "waiting for the ASan build"
	@BACKGROUND_BUILD_OWNER=$$PPID bash scripts/background_build.sh start $(LOGDIR) tsan bash -c '$(TSAN_COMPILE)'
	@SUITE_LANES=$(JOBS) bash scripts/run_tests.sh $(LOGDIR) $(ASAN_BUILD) asan
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "ASan suites"
	@JOBS=$(JOBS) RUNTIME_TEST_EXCLUDE='$(MATRIX_RUNTIME_EXCLUDE)' bash scripts/run_matrix.sh $(LOGDIR) $(ASAN_BUILD) asan "$(ASAN_MATRIX)" $(ASAN_MATRIX_SUITES)
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "ASan version matrix"
	@bash scripts/background_build.sh wait $(LOGDIR) tsan
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "waiting for the TSan build"
	@BACKGROUND_BUILD_OWNER=$$PPID bash scripts/background_build.sh start $(LOGDIR) clang bash -c 'bash scripts/install_deps.sh clang && $(CLANG_COMPILE)'
	@RUNTIME_TEST_CASES='*threads*' bash scripts/run_tests.sh $(LOGDIR) $(TSAN_BUILD) tsan runtime
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "TSan suite"
	@bash scripts/background_build.sh wait $(LOGDIR) clang
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "waiting for the clang build"
	@SUITE_LANES=$(JOBS) bash scripts/run_tests.sh $(LOGDIR) $(CLANG_BUILD) clang unit sql
	@bash scripts/step_clock.sh $(LOGDIR) $(TEST_STARTED) "clang suites"
	@bash scripts/summarize_tests.sh $(LOGDIR)

wasm: deps
	@$(WASM_COMPILE)

test-wasm: build wasm
	@rm -rf $(LOGDIR)
	@WASM_BUILD=$(WASM_BUILD) bash scripts/run_tests.sh $(LOGDIR) $(BUILD) release wasm
	@bash scripts/summarize_tests.sh $(LOGDIR)

test-tsan: build-tsan
	@rm -rf $(LOGDIR)
	@RUNTIME_TEST_CASES='*threads*' bash scripts/run_tests.sh $(LOGDIR) $(TSAN_BUILD) tsan runtime
	@bash scripts/summarize_tests.sh $(LOGDIR)

test-asan: build-asan
	@rm -rf $(LOGDIR)
	@bash scripts/run_tests.sh $(LOGDIR) $(ASAN_BUILD) asan
	@bash scripts/summarize_tests.sh $(LOGDIR)

matrix: build
	@rm -rf $(LOGDIR)
	@bash scripts/setup_sqlite_versions.sh $(SQLITE_VERSIONS_DIR) || echo "matrix: not every SQLite of the matrix could be built"
	@$(MAKE) --no-print-directory run-matrix
	@bash scripts/summarize_tests.sh $(LOGDIR)

run-matrix:
	@JOBS=$(JOBS) RUNTIME_TEST_EXCLUDE='$(MATRIX_RUNTIME_EXCLUDE)' bash scripts/run_matrix.sh $(LOGDIR) $(BUILD) release "$(SQLITE_MATRIX)" $(MATRIX_SUITES)
	@JOBS=$(JOBS) bash scripts/run_matrix.sh $(LOGDIR) $(BUILD) release "$(REMOTE_MATRIX)" remote lake

unit sql differential conformance lake interop runtime hosts remote sqlite-api layering: build
	@rm -rf $(LOGDIR)
	@bash scripts/run_tests.sh $(LOGDIR) $(BUILD) release $@
	@bash scripts/summarize_tests.sh $(LOGDIR)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(CLANG_BUILD) $(FUZZ_BUILD) $(DIST_BUILD) $(DIST_BUILD)-arm64 $(WINDOWS_BUILD) $(WASM_BUILD) dist

# Release artefacts (docs/release-artefacts.md): scripts/make_dist.sh builds the extension
# with every library linked in (-DSTATIC_DEPS=ON; snappy and zlib compiled as PIC from
# Debian's source packages, since Debian's libsnappy.a and libz.a are not PIC and one file is
# simpler to ship than a set with an $ORIGIN RUNPATH), against Debian 11's glibc as the
# sysroot (the glibc 2.28 floor), for x86-64 in $(DIST_BUILD)/ and arm64 in
# $(DIST_BUILD)-arm64/ (Debian's cross compiler), then the wheels and the npm tarball around
# them. Downloads and cross-built libraries are kept in those folders, keyed by version;
# ccache serves the objects of a second run.
# test-dist needs $(BUILD)/parquet.so too: loading it must fail where tests/dist hides the
# system libraries, which proves the hide works.
DIST_BUILD ?= build-dist
dist:
	@DIST_BUILD=$(DIST_BUILD) WINDOWS_BUILD=$(WINDOWS_BUILD) WASM_BUILD=$(WASM_BUILD) JOBS=$(JOBS) WERROR=$(WERROR) bash scripts/make_dist.sh

test-dist: deps
	@$(RELEASE_CONFIGURE)
	@cmake --build $(BUILD) -j $(JOBS) --target parquet
	@$(MAKE) --no-print-directory dist
	@rm -rf $(LOGDIR)
	@DIST_BUILD=$(DIST_BUILD) bash scripts/run_tests.sh $(LOGDIR) $(BUILD) release dist
	@bash scripts/summarize_tests.sh $(LOGDIR)

# Fuzzing (docs/bad-input.md, "Fuzzing"): clang + libFuzzer (Debian libclang-rt-14-dev), ASan+UBSan.
# Each target runs FUZZ_SECONDS, one after the other, from its seeds (made from
# $(PARQUET_TESTING) and our writer), its committed regressions and the corpus it grew in
# earlier runs ($(FUZZ_BUILD)/corpus/TARGET). Crashes land in $(FUZZ_BUILD)/artifacts/.
FUZZ_SECONDS ?= 60
FUZZ_BUILD ?= build-fuzz
FUZZ_TARGETS ?= thrift pages read writer copy s3_listing iceberg
FUZZ_FLAGS ?= -rss_limit_mb=2048 -timeout=20
PARQUET_TESTING ?= $(abspath ..)/shared/parquet-testing
fuzz:
	@bash scripts/install_deps.sh fuzz
	@$(CMAKE_CONFIGURE) -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=Release -DFUZZ=ON -DWERROR=OFF \
	  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_seeds $(addprefix fuzz_,$(FUZZ_TARGETS))
	@$(FUZZ_BUILD)/fuzz_seeds $(FUZZ_BUILD)/seeds $(PARQUET_TESTING) --iceberg=$(abspath ..)/shared/lake/iceberg
	@mkdir -p $(FUZZ_BUILD)/artifacts
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t tests/fuzz/regressions/$$t; \
	  echo "=== fuzz_$$t for $(FUZZ_SECONDS)s"; \
	  $(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -dict=tests/fuzz/parquet.dict $(FUZZ_FLAGS) \
	    -artifact_prefix=$(FUZZ_BUILD)/artifacts/$$t- -print_final_stats=1 \
	    $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/seeds/$$t tests/fuzz/regressions/$$t; \
	done

# Benchmarks (bench/README.md): `make bench` (N rows, default 6000000; `make bench N=100000`
# for a quick run) prints the results table and writes bench/results.json. Not part of
# `make test`; `make bench-smoke` is its quick self-check (2000 rows, one run).
N ?= 6000000
BENCH_RUNS ?= 3
.PHONY: bench bench-smoke
bench: build
	@bash bench/setup.sh
	@node bench/run.mjs --rows $(N) --runs $(BENCH_RUNS) --build $(BUILD)

bench-smoke: build
	@bash bench/setup.sh
	@node bench/run.mjs --smoke --build $(BUILD)
