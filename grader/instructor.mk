# instructor.mk: grading a class, and the student copy of the course
# (included by the Makefile).
#
#   make grade-class SUBMISSIONS=dir    grade every student's folder or archive in dir
#       lesson3 lesson9 or LESSONS=3,9   only these lessons
#       CLASS_OUT=dir                    where the results go (default build/class)
#       REGRADE=1                        grade again even the unchanged submissions
#       GPUS=all or GPUS=0,1             a worker per GPU, each taking the next student
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

.PHONY: grade-class release full-course

grade-class: $(GRADER)
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade-class SUBMISSIONS=dir [LESSONS=3,9] [CLASS_OUT=dir] [REGRADE=1] [BUDGET=s] [GPUS=all]"; exit 2; }
	@test -d "$(SUBMISSIONS)" || { echo "make grade-class: $(SUBMISSIONS) is not a folder"; exit 2; }
	@$(GRADER) class "$(SUBMISSIONS)" $(CLASS_LESSONS) --out "$(CLASS_OUT)" $(CLASS_ARGS)

# The student copy: every file git tracks, less solutions/, the course's own
# test suites and CI; the reference solutions compiled to PTX instead.
release: $(GRADER)
	@bash grader/scripts/release.sh "$(RELEASE_OUT)" "$(GRADER)"

# What needs the solutions' sources says so plainly in a student copy.
full-course:
	@test -d solutions || { echo "This is the student copy of the course: it has no solutions/"; \
	  echo "folder, so this instructor's target cannot run here. Use the full course."; exit 1; }
