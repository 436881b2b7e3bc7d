# tests/slides/slides.mk: the lesson decks in a real browser (included by
# slides/slides.mk; make test-slides, and so make test, runs it).
#
#   make test-slides-browser   every deck in Chromium at 1280x720 and
#                              1920x1080: nothing past a slide's edge, every
#                              image loaded, no request to the network, the
#                              lesson's prose in the notes, a median slide of
#                              at most 50 words; then the self-test, which
#                              plants each of those faults and expects it caught
#
# Chromium is installed like the suite's other packages (need-package.sh:
# as root or with password-less sudo). Where that cannot be done it says it
# skipped, why, and the one command that enables it; under CI (.ci/run
# installs chromium) a missing browser is a failure, not a skip.

SELFTEST_DECK := $(BUILD)/slides-selftest/broken-deck.html

$(SELFTEST_DECK): tests/slides/fixtures/broken-deck.md slides/lesson-slides.lua slides/course.css \
                  $(REVEAL_KIT)/dist/reveal.js
	@mkdir -p $(dir $@)
	@$(call DECK,$<,$@)

# What the browser test opens, built ahead by make test-cpu (make -j).
test-slides-build: $(SLIDES) $(SELFTEST_DECK) $(NPM_STAMP)

test-slides-browser: test-slides-build
	@chromium="$(FIND_CHROMIUM)"; \
	if [ -z "$$chromium" ] && [ -z "$(CHROMIUM)" ] && \
	   $(NEED) chromium sh -c 'command -v chromium || command -v chromium-browser'; then \
	  chromium="$(FIND_CHROMIUM)"; \
	fi; \
	if [ -z "$$chromium" ]; then \
	  if [ -n "$$CI" ]; then echo "FAIL slides in Chromium: no chromium on this CI machine (.ci/run installs it)"; exit 1; fi; \
	  echo "slides in Chromium: SKIPPED: no chromium here; enable with: sudo apt-get install -y chromium"; exit 0; \
	fi; \
	echo "== slides in Chromium: $(words $(SLIDES)) decks at 1280x720 and 1920x1080 =="; \
	NPM_DIR=$(NPM_DIR) node tests/slides/check-decks.mjs "$$chromium" $(SLIDES) && \
	NPM_DIR=$(NPM_DIR) node tests/slides/selftest.mjs "$$chromium" $(SELFTEST_DECK)

.PHONY: test-slides-browser test-slides-build
