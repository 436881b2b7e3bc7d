# class.mk: the class tools end to end on CPU (included by tests/tests.mk).
#
#   make test-class     make grade-class on a generated class of five (a
#                       solution copy, the stubs, a compile error, a hostile
#                       archive, an unchanged re-run), then make release
#                       unpacked, built and compiled with no solutions/; a
#                       hostile class (names, every archive kind, nesting); one
#                       run per folder, interrupts; GPUS=0,1 against one process;
#                       a real one-node Slurm cluster (also: make test-slurm)

test-class: $(GRADER) class-packages
	@bash tests/class/grade-class.sh
	@bash tests/class/hostile-class.sh
	@bash tests/class/guard-class.sh
	@bash tests/class/gpus-class.sh
	@bash tests/class/slurm-class.sh

# A one-node Slurm cluster on localhost, a class graded on it (root only).
test-slurm: $(GRADER)
	@$(NEED) slurm-wlm command -v slurmctld
	@$(NEED) munge command -v munged
	@bash tests/class/slurm-class.sh
	@bash tests/class/release.sh

class-packages:
	@$(NEED) zip command -v zip
	@$(NEED) unzip command -v unzip

.PHONY: test-class test-slurm class-packages
