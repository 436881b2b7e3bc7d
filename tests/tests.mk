# tests.mk: the course's own test suite (included by the Makefile).
#
#   make test       the CPU suite (Check), then the GPU suite, which says
#                   "skipped: no GPU" on a machine without one
#   make test-cpu   grader logic, spec consistency, NVRTC compilation of
#                   every stub/solution/baseline, mechanism checks, the GPU
#                   fixtures' expect files, SANITIZE=race's report; then the
#                   command line (tests/cli/run.sh): make's messages, make
#                   check without a GPU, watch, progress; the grader's layers
#                   (grader/scripts/include-graph.sh); the class tools
#                   end to end (tests/class/class.mk); the slides in Chromium.
#                   Built with make -j, then run side by side, TEST_JOBS at
#                   a time (default: CPUs + 1; tests/cpu-suite.sh)
#   make test-gpu   solutions pass, stubs fail, baselines fail the speed
#                   rule, faulty kernels get their messages

CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -lpthread)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(BUILD)/tests/unit_tests
GPU_BIN := $(BUILD)/tests/gpu_tests
# The expect files of tests/gpu/{faulty,cheats,races,accepted}: read by both suites.
FIXTURE_SRC := tests/gpu/fixture.c

# How many parts of the CPU suite run at once (default: one more than the
# CPUs, since some parts spend part of their time waiting), and make's jobs
# for building what they use (one per CPU, unless make was given its own -j).
NPROC = $(shell nproc 2>/dev/null || echo 2)
TEST_JOBS ?= $(shell echo $$(($(NPROC) + 1)))
BUILD_JOBS = $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(NPROC))

# One after the other, even under make -j: the GPU suite times kernels, and
# nothing may run beside it.
test:
	@$(MAKE) --no-print-directory test-cpu
	@$(MAKE) --no-print-directory test-gpu

check-package:
	@$(NEED) check test -f /usr/include/check.h
	@$(NEED) pkg-config command -v pkg-config

# One object per source, so that make -j compiles them side by side.
UNIT_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(UNIT_SRC) $(FIXTURE_SRC))

$(BUILD)/obj/tests/%.o: tests/%.c tests/unit/*.h tests/gpu/fixture.h $(GRADER_H) \
                        | check-package cuda-toolkit
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Igrader -Itests/gpu $(CHECK_CFLAGS) -c -o $@ $<

$(UNIT_BIN): $(UNIT_OBJ) $(BUILD)/libgrader.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CHECK_CFLAGS) -o $@ $(UNIT_OBJ) $(BUILD)/libgrader.a $(CHECK_LIBS) $(LDLIBS)

$(GPU_BIN): tests/gpu/test_gpu.c $(FIXTURE_SRC) tests/gpu/fixture.h $(BUILD)/libgrader.a \
            | check-package
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Igrader $(CHECK_CFLAGS) -o $@ tests/gpu/test_gpu.c $(FIXTURE_SRC) \
	  $(BUILD)/libgrader.a $(CHECK_LIBS) $(LDLIBS)

# How often a racy kernel is wrong, launch by launch (tests/gpu/race-experiment.sh).
RACE_PROBE := $(BUILD)/tests/race_probe
$(RACE_PROBE): tests/gpu/race_probe.c $(BUILD)/libgrader.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Igrader -o $@ $< $(BUILD)/libgrader.a $(LDLIBS)

# What the sampled run of the timed launch adds to a GPU grading, on the CPU
# (tests/gpu/sim_sample_time.c; the table in grader/grade/README.md).
SAMPLE_TIME := $(BUILD)/tests/sim_sample_time
$(SAMPLE_TIME): tests/gpu/sim_sample_time.c $(BUILD)/libgrader.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Igrader -o $@ $< $(BUILD)/libgrader.a $(LDLIBS)

# Everything the CPU suite's parts use, built first (make -j), so that the
# parts, running side by side, only read it.
test-cpu-build: $(UNIT_BIN) $(GRADER) test-slides-build class-packages
	@:

# The CPU suite's parts side by side (tests/cpu-suite.sh says which), each
# one's output printed whole, in a fixed order, with its time.
test-cpu:
	@$(MAKE) --no-print-directory $(BUILD_JOBS) -Otarget test-cpu-build
	@UNIT_BIN=$(UNIT_BIN) GRADER=$(GRADER) CUDA_HOME=$(CUDA_HOME) TEST_JOBS=$(TEST_JOBS) \
	  bash tests/cpu-suite.sh

# Every lesson must become a deck that needs no network: reveal.js embedded,
# no link to a CDN.
test-slides: slides
	@for f in $(SLIDES); do \
	  grep -q 'Reveal.initialize' $$f || { echo "FAIL $$f: no reveal.js inside"; exit 1; }; \
	  if grep -qE '(src|href)="https?://' $$f; then echo "FAIL $$f: loads something from the network"; exit 1; fi; \
	done; echo "slides: $(words $(SLIDES)) decks build and are self-contained"
	@$(MAKE) --no-print-directory test-slides-browser

test-gpu: $(GPU_BIN) $(GRADER)
	@echo "== GPU test suite =="
	@$(GPU_BIN)

.PHONY: check-package test-slides test-cpu-build

include tests/class/class.mk

# Mutation testing (tests/mutate/mutate.py): does the CPU suite fail when
# the grader is wrong? Generic mutants of grader/, each built and tested in
# a copy of the tree (the tree itself is never changed); prints the
# survivors and the score per file. About 30 minutes on 2 cores.
#   MUTATE_FILES="grader/stats.c ..."  only these files (default: every file
#                                      tests/mutate/suites.map covers)
#   MUTATE_SAMPLE=n (default 500; 0: every mutant)  MUTATE_SEED=s (default 16)
#   MUTATE_JOBS=n (default: CPUs)
# The default seed is the last sample measured before anyone wrote tests
# against it (16, 2026-11-28: tests/mutate/results-seed16-2026-11-28.txt).
# Tests written against a sample's survivors make that sample flatter the
# suite (seed 14 reads 98% after three rounds of them, 15 reads 94%):
# measure progress on a seed no one has looked at.
MUTATE_SAMPLE ?= 500
MUTATE_SEED ?= 16
MUTATE_JOBS ?= $(NPROC)
mutate:
	@python3 tests/mutate/mutate.py --sample $(MUTATE_SAMPLE) --seed $(MUTATE_SEED) \
	  --jobs $(MUTATE_JOBS) $(MUTATE_FILES)

# The CI sample: mutants recorded as caught (tests/mutate/ci-mutants.txt)
# must still be caught.
mutate-ci:
	@python3 tests/mutate/mutate.py --ids tests/mutate/ci-mutants.txt --expect-caught \
	  --jobs $(MUTATE_JOBS)

.PHONY: mutate mutate-ci
