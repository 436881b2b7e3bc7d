# The course's Makefile. `make help` lists what it can do.
#
#   make check lesson1      grade your lesson 1 exercises
#   make test               the course's own test suite
#
# Knobs of an exercise can be set on the command line: make check lesson3 TILE=16

CUDA_HOME ?= /usr/local/cuda
CC ?= cc
BUILD := build

# Which lessons a goal like `make check lesson3` means: every goal that looks
# like lessonN. No lesson named: all of them.
LESSONS := $(filter lesson%,$(MAKECMDGOALS))
LESSON_ARGS := $(if $(LESSONS),$(LESSONS),all)

# Knobs: every variable set on make's command line that is not one of make's
# own options below goes to the grader as --set NAME=VALUE. The grader knows
# each lesson's knobs and refuses a name no graded lesson has (tile=32,
# TILES=32, PDIST for lesson 3), so nothing is silently ignored and a new
# lesson's knobs need no change here.
MAKE_OPTIONS := CUDA_HOME CC CFLAGS SEED TIMEOUT ONLY NCU SANITIZE STUDENT_DIR NO_COLOR TEST_JOBS V
CMDLINE_VARS := $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v)))
quote = '$(subst ','\'',$(1))'
KNOB_ARGS := $(foreach v,$(sort $(filter-out $(MAKE_OPTIONS),$(CMDLINE_VARS))),\
               --set $(call quote,$(v)=$($(v))))
GRADE_ARGS := $(KNOB_ARGS) $(if $(SEED),--seed $(SEED)) $(if $(TIMEOUT),--timeout $(TIMEOUT)) \
              $(if $(ONLY),--only $(call quote,$(ONLY))) $(if $(filter 1,$(NCU)),--ncu) \
              $(if $(STUDENT_DIR),--student-dir $(call quote,$(STUDENT_DIR)))
# Your results, kept between runs for make progress (git ignores the file,
# make clean keeps it). Only your own exercises/ are recorded.
PROGRESS_FILE := .progress
PROGRESS_ARGS := $(if $(STUDENT_DIR),,--progress $(PROGRESS_FILE))

CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-missing-field-initializers \
          -I$(CUDA_HOME)/include -DCUDA_INCLUDE_DEFAULT='"$(CUDA_HOME)/include"'
# The grader's folders (below), kept even when CFLAGS is set on the command line;
# -iquote, so that #include "limits.h" is the grader's and <limits.h> the system's.
override CFLAGS += -iquote grader $(foreach d,$(GRADER_DIRS),-iquote grader/$(d))
LDLIBS := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lnvrtc -lcudart_static \
          -larchive -ldl -lpthread -lrt -lm

# The grader's layers, one folder each (grader/README.md draws them). Every
# folder is on the include path, so a file names another's header by its name
# alone ("compile.h"), wherever the two live.
GRADER_DIRS := core ptx sim device compile rules grade report class cli specs
GRADER_H := grader/*.h $(foreach d,$(GRADER_DIRS),grader/$(d)/*.h)
GRADER_SRC := $(filter-out grader/cli/main.c,$(foreach d,$(GRADER_DIRS),$(wildcard grader/$(d)/*.c)))
GRADER_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(GRADER_SRC))
GRADER := $(BUILD)/grader
NEED := sh grader/scripts/need-package.sh

# The grader's build is quiet: one line when it starts ("building the
# grader"), not a compiler command per file, so a first make check shows
# the report, not 100 command lines. Compiler errors and warnings still
# show. V=1 prints every command. The line is printed once per build: the
# first compile to make the folder $(BUILD)/.building (mkdir is atomic, so
# two parallel compiles cannot both) prints it; the link removes it.
Q := $(if $(filter 1,$(V)),,@)
ANNOUNCE := $(if $(filter 1,$(V)),:,mkdir -p $(BUILD) && if mkdir $(BUILD)/.building \
            2>/dev/null; then echo "building the grader (once; V=1 shows the commands)"; fi)

.PHONY: help all grader check check-solutions static list watch progress test test-cpu \
        test-gpu slides measure sweep clean cuda-toolkit archive-package $(LESSONS)

help:
	@echo "The CUDA memory optimisation course"
	@echo ""
	@echo "  make check lessonN        grade your exercises of lesson N (make check: every lesson)"
	@echo "      SEED=n                 replay the inputs of an earlier run"
	@echo "      SANITIZE=1             run your kernels under compute-sanitizer (finds bad accesses)"
	@echo "      SANITIZE=race          look for races: racecheck and synccheck on the correctness runs"
	@echo "      TIMEOUT=s              seconds one exercise may take (default 120)"
	@echo "      ONLY=name              grade one exercise of the lesson"
	@echo "      NCU=1                  also show Nsight Compute counters (bank conflicts, stalls)"
	@echo "      STUDENT_DIR=dir        grade the files under dir instead of exercises/"
	@echo "      V=1                    show the compiler's commands when the grader is built"
	@echo "      TILE=16, PDIST=8, ...  set an exercise's knob (make list shows them)"
	@echo "      Without a GPU it compiles your files, runs every mechanism check"
	@echo "      and each kernel on the PTX simulator (CORRECT: right, all checks hold)."
	@echo "      Succeeds when all passed (without a GPU: all CORRECT or CHECKED);"
	@echo "      fails with make's Error 1 when an exercise failed, Error 2 when a knob,"
	@echo "      its value or an exercise name is wrong (then nothing is graded)"
	@echo "  make watch lessonN        grade again whenever you save one of the lesson's files"
	@echo "  make progress             the course map: what passed, what was tried, what is next"
	@echo "  make check-solutions      grade the reference solutions (instructors, tests)"
	@echo "  make grade-class SUBMISSIONS=dir   grade a whole class (instructors; see grader/instructor.mk)"
	@echo "      GPUS=all               a worker per GPU; SCHEDULER=slurm: a Slurm job array"
	@echo "  make release              the student copy, without solution sources"
	@echo "  make list                 every exercise: the file to edit, its lesson, its knobs"
	@echo "  make static               compile every kernel with NVRTC and check mechanisms (no GPU)"
	@echo "  make measure lesson2      measure coalescing on your GPU and plot it"
	@echo "  make sweep lesson9        time the prefetch variants over PDIST and plot them"
	@echo "  make slides               one reveal.js deck per lesson in slides/ (S: speaker notes)"
	@echo "  make slides-pdf           one handout PDF per lesson: each slide, then its notes"
	@echo "  make test                 the course's test suite (GPU part skipped without a GPU)"
	@echo "      TEST_JOBS=n            parts of the CPU suite run at once (default: CPUs + 1)"
	@echo "  make mutate               does the CPU suite catch a broken grader? (mutation score, ~30 min)"
	@echo "  make clean                remove build/ and generated slides"

all: grader

# `make check lesson3`: the lesson names are arguments, not things to build.
$(LESSONS):
	@:

cuda-toolkit:
	@test -f $(CUDA_HOME)/include/nvrtc.h || { \
	  echo "No CUDA toolkit at $(CUDA_HOME) (no include/nvrtc.h)."; \
	  echo "Install the CUDA Toolkit, or point to it: make ... CUDA_HOME=/path/to/cuda"; exit 1; }

# Submissions (grader class) are read through libarchive.
archive-package:
	@$(NEED) libarchive-dev test -f /usr/include/archive.h
$(BUILD)/obj/grader/class/archive.o: | archive-package

grader: $(GRADER)

$(GRADER): $(GRADER_OBJ) $(BUILD)/obj/grader/cli/main.o | cuda-toolkit
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
	@rmdir $(BUILD)/.building 2>/dev/null || true

# Made afresh: `ar r` alone keeps the objects of deleted sources.
$(BUILD)/libgrader.a: $(GRADER_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/obj/%.o: %.c $(GRADER_H) | cuda-toolkit
	@mkdir -p $(dir $@)
	@$(ANNOUNCE)
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

# The grader's status 3 (no GPU, everything that can be checked without one
# holds) is not a failure: make check says so and exits 0.
check: $(GRADER)
ifeq ($(SANITIZE),race)
	@GRADER=$(GRADER) CUDA_HOME=$(CUDA_HOME) bash grader/scripts/race-check.sh $(LESSON_ARGS) \
	  $(GRADE_ARGS)
else ifeq ($(SANITIZE),1)
	@san=$$(sh grader/scripts/find-sanitizer.sh "$(CUDA_HOME)") || exit 1; \
	echo "$$san --tool memcheck ..."; \
	PATH="$(CUDA_HOME)/bin:$$PATH" GRADER_LAUNCH_TIMEOUT=120 "$$san" --tool memcheck \
	  --print-limit 20 $(GRADER) check $(LESSON_ARGS) --correctness-only --timeout 600 $(GRADE_ARGS)
else
	@$(GRADER) check $(LESSON_ARGS) $(GRADE_ARGS) $(PROGRESS_ARGS); s=$$?; [ $$s -ne 3 ] || s=0; exit $$s
endif

check-solutions: full-course $(GRADER)
	@$(GRADER) check $(LESSON_ARGS) --solutions --json $(BUILD)/report-solutions.json $(GRADE_ARGS)

watch: $(GRADER)
	@$(GRADER) watch $(LESSON_ARGS) $(GRADE_ARGS) $(PROGRESS_ARGS)

progress: $(GRADER)
	@$(GRADER) progress --progress $(PROGRESS_FILE)

list: $(GRADER)
	@$(GRADER) list $(LESSON_ARGS) $(if $(ONLY),--only $(call quote,$(ONLY))) \
	  $(if $(STUDENT_DIR),--student-dir $(call quote,$(STUDENT_DIR)))

static: $(GRADER)
	@$(GRADER) static $(LESSON_ARGS) $(KNOB_ARGS) \
	  $(if $(STUDENT_DIR),--student-dir $(call quote,$(STUDENT_DIR)))

clean:
	rm -rf $(BUILD) slides/*.html slides/*.pdf

include tests/tests.mk
include slides/slides.mk
include grader/measure/measure.mk
include grader/instructor.mk
