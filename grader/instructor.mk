# instructor.mk: grading a class, and the student copy of the course
# (included by the Makefile).
#
#   make grade-class SUBMISSIONS=dir    grade every student's folder or archive in dir
#       lesson3 lesson9 or LESSONS=3,9   only these lessons
#       CLASS_OUT=dir                    where the results go (default build/class)
#       REGRADE=1                        grade again even the unchanged submissions
#       GPUS=all or GPUS=0,1             a worker per GPU, each taking the next student
#       SCHEDULER=slurm                  a Slurm job array instead (a task per student, or
#                                        BATCH=k students per task), then the merge as a job
#                                        that depends on it; the batch scripts are kept in
#                                        CLASS_OUT/slurm/. PARTITION=p ACCOUNT=a SLURM_TIME=t
#                                        SLURM_GRES=gpu:1 (default: gpu:1 where sinfo shows GPUs)
#   make grade-class-collect SUBMISSIONS=dir   merge what the cluster's tasks left (the
#                                        dependent job runs this); a student without
#                                        results gets a row saying why
#       BUDGET=s  TIMEOUT=s  SEED=n      seconds per student, per exercise; the inputs' seed
#   make release                        build/release/cuda-course-student.tar.gz: the
#                                        course without solution sources

CLASS_OUT ?= $(BUILD)/class
RELEASE_OUT ?= $(BUILD)/release
comma := ,
CLASS_LESSONS := $(subst $(comma), ,$(LESSON_ARGS))
CLASS_ARGS := $(if $(SEED),--seed $(SEED)) $(if $(TIMEOUT),--timeout $(TIMEOUT)) \
              $(if $(BUDGET),--budget $(BUDGET)) $(if $(filter 1,$(REGRADE)),--regrade) \
              $(if $(GPUS),--gpus $(call quote,$(GPUS)))

.PHONY: grade-class grade-class-collect release full-course

SLURM_GRES ?= $(shell sinfo -h -o %G 2>/dev/null | grep -q gpu && echo gpu:1 || echo none)
SLURM_ARGS = --slurm-gres $(call quote,$(SLURM_GRES)) $(if $(BATCH),--batch $(BATCH)) \
              $(if $(PARTITION),--slurm-partition $(call quote,$(PARTITION))) \
              $(if $(ACCOUNT),--slurm-account $(call quote,$(ACCOUNT))) \
              $(if $(SLURM_TIME),--slurm-time $(call quote,$(SLURM_TIME)))
CLASS_CMD = $(GRADER) class $(call quote,$(SUBMISSIONS)) $(CLASS_LESSONS) --out $(call quote,$(CLASS_OUT)) $(CLASS_ARGS)

grade-class: $(GRADER)
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade-class SUBMISSIONS=dir [LESSONS=3,9] [CLASS_OUT=dir] [REGRADE=1] [BUDGET=s] [GPUS=all]"; exit 2; }
	@test -d "$(SUBMISSIONS)" || { echo "make grade-class: $(SUBMISSIONS) is not a folder"; exit 2; }
ifeq ($(SCHEDULER),slurm)
	@command -v sbatch >/dev/null || { echo "make grade-class SCHEDULER=slurm: no sbatch here (run it on the cluster's login node)"; exit 2; }
	@$(CLASS_CMD) --slurm $(SLURM_ARGS)
	@if [ -s "$(CLASS_OUT)/slurm/tasks.txt" ]; then \
	  job=$$(sbatch --parsable "$(CLASS_OUT)/slurm/grade-class.sbatch") || exit 1; \
	  merge=$$(sbatch --parsable --dependency=afterany:$$job "$(CLASS_OUT)/slurm/collect.sbatch") || exit 1; \
	  echo "Submitted job array $$job, and the merge $$merge after it (squeue -j $$job,$$merge)."; \
	  echo "Results: $(CLASS_OUT)/gradebook.csv when $$merge ends, or make grade-class-collect."; \
	else $(CLASS_CMD) --collect; fi
else ifneq ($(SCHEDULER),)
	@echo "make grade-class: SCHEDULER=$(SCHEDULER) is not known (slurm, or none)"; exit 2
else
	@$(CLASS_CMD)
endif

grade-class-collect: $(GRADER)
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade-class-collect SUBMISSIONS=dir [LESSONS=3,9] [CLASS_OUT=dir]"; exit 2; }
	@$(CLASS_CMD) --collect

# The student copy: every file git tracks, less solutions/, the course's own
# test suites and CI; the reference solutions compiled to PTX instead.
release: $(GRADER)
	@bash grader/scripts/release.sh "$(RELEASE_OUT)" "$(GRADER)"

# What needs the solutions' sources says so plainly in a student copy.
full-course:
	@test -d solutions || { echo "This is the student copy of the course: it has no solutions/"; \
	  echo "folder, so this instructor's target cannot run here. Use the full course."; exit 1; }
