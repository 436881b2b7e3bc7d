# class.mk: the class tools end to end on CPU (included by tests/tests.mk).
#
#   make test-class     make grade-class on a generated class of five (a
#                       solution copy, the stubs, a compile error, a hostile
#                       archive, an unchanged re-run), then make release
#                       unpacked, built and compiled with no solutions/; a
#                       hostile class (names, every archive kind, nesting)

test-class: $(GRADER) class-packages
	@bash tests/class/grade-class.sh
	@bash tests/class/hostile-class.sh
	@bash tests/class/guard-class.sh
	@bash tests/class/gpus-class.sh
	@bash tests/class/release.sh

class-packages:
	@$(NEED) zip command -v zip
	@$(NEED) unzip command -v unzip

.PHONY: test-class class-packages
