# A thin wrapper over CMake: the two commands a new user types.
#   make run   install missing packages, build, run the samples (the last:
#              samples/mlp compiled from StableHLO, checked against numpy)
#   make test  install missing packages, build (gcc and a clang
#              ASan+UBSan tree), run every test in both, then build the
#              concurrency tests alone with ThreadSanitizer and run them
BUILD_DIR ?= build
SAN_BUILD_DIR ?= build-sanitize
TSAN_BUILD_DIR ?= build-tsan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all deps build build-sanitize build-tsan run test test-fast clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DGRT_WERROR=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD_DIR) -j $(JOBS)

build-sanitize: deps
	CC=clang cmake -S . -B $(SAN_BUILD_DIR) -G Ninja -DGRT_WERROR=ON \
	  -DCMAKE_BUILD_TYPE=Debug -DGRT_SANITIZE=address,undefined \
	  -DGRT_BUILD_FUZZERS=ON $(CMAKE_FLAGS)
	cmake --build $(SAN_BUILD_DIR) -j $(JOBS)

# ThreadSanitizer: only the targets of the tests labelled concurrency
# (grt_concurrency_tests), not the whole tree.
build-tsan: deps
	CC=clang cmake -S . -B $(TSAN_BUILD_DIR) -G Ninja -DGRT_WERROR=ON \
	  -DCMAKE_BUILD_TYPE=Debug -DGRT_SANITIZE=thread $(CMAKE_FLAGS)
	cmake --build $(TSAN_BUILD_DIR) -j $(JOBS) --target grt_concurrency_tests

run: build
	@scripts/run-sample.sh $(BUILD_DIR)

test: build build-sanitize build-tsan
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan_suppressions.txt \
	  ctest --test-dir $(SAN_BUILD_DIR) --output-on-failure -j $(JOBS)
	TSAN_OPTIONS=halt_on_error=1 \
	  ctest --test-dir $(TSAN_BUILD_DIR) --output-on-failure -j $(JOBS) -L concurrency

# Only the primary tree, for quick iteration.
test-fast: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD_DIR) $(SAN_BUILD_DIR) $(TSAN_BUILD_DIR)
