# tests.mk of the student copy: `make release` ships this file in place of
# the course's own tests/tests.mk. The course's suites grade the solutions'
# sources, which a student copy carries only compiled; here `make test`
# checks what a student relies on.
#
#   make test-cpu   every compiled reference is there, for the default knobs,
#                   and assembles; every exercise and baseline compiles
#   make test-gpu   the untouched exercises graded against the compiled
#                   references: every one gets a verdict, none INTERNAL

test: test-cpu test-gpu

test-cpu: $(GRADER)
	@echo "== Student copy: compiled references and every exercise (no GPU needed) =="
	@$(GRADER) references --verify

test-gpu: $(GRADER)
	@echo "== Student copy: your exercises against the compiled references =="
	@$(GRADER) check all --json $(BUILD)/release-check.json >$(BUILD)/release-check.txt 2>&1; \
	if grep -qE '"outcome": "(NO GPU|CHECKED)"' $(BUILD)/release-check.json; then \
	  echo "skipped: no GPU, so nothing can be run (make test-cpu compiled everything)"; exit 0; fi; \
	if grep -q '"outcome": "INTERNAL"' $(BUILD)/release-check.json; then \
	  cat $(BUILD)/release-check.txt; echo "FAIL: an exercise could not be graded against its compiled reference"; exit 1; fi; \
	echo "ok: every exercise was graded against its compiled reference ($(BUILD)/release-check.txt)"

.PHONY: test test-cpu test-gpu
