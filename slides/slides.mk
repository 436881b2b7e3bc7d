# slides.mk: `make slides` turns each lessons/lessonN-*.md into
# slides/lessonN-*.html, a reveal.js deck for a 16:9 screen that works
# offline: slide-sized content on the slides, the lesson's prose as speaker
# notes (press S). lessons/README.md says how a lesson marks its slides;
# slides/lesson-slides.lua reads that markup.
#
#   make slides        the decks (pandoc; reveal.js from npm under build/)
#   make slides-pdf    one handout PDF per lesson, slides with their notes
#                      (reveal.js's print view through Chromium)
#
# When `make measure` or `make sweep` has drawn figures under build/measure/,
# the decks show those, labelled with the GPU and date they were measured on;
# otherwise the course's calibrated figures from lessons/figures/.

NPM_DIR := $(BUILD)/npm
NPM_STAMP := $(NPM_DIR)/installed.stamp
REVEAL_SRC := $(NPM_DIR)/node_modules/reveal.js
# What every deck embeds: reveal.js, its CSS and plugins, and a theme whose
# fonts are the four WOFF files only (the stock theme also pulls in EOT and
# TTF copies, which made each deck 3 MB and four seconds of pandoc).
REVEAL_KIT := $(BUILD)/slides/reveal
# Debian's chromium, or CHROMIUM=/path/to/chrome.
CHROMIUM ?=
FIND_CHROMIUM = $(or $(CHROMIUM),$$(command -v chromium || command -v chromium-browser))
LESSON_MD := $(sort $(wildcard lessons/lesson*.md))
SLIDES := $(patsubst lessons/%.md,slides/%.html,$(LESSON_MD))
MEASURED_FIGURES := $(wildcard $(BUILD)/measure/*.png $(BUILD)/measure/*.tsv)
# Which measured figures there are, rewritten only when the set changes, so
# that the decks are rebuilt when one appears and also when one is removed.
MEASURED_LIST := $(BUILD)/slides/measured-figures.txt
ifneq ($(filter slides slides-pdf test test-cpu test-cpu-build test-slides test-slides-build test-slides-browser slides/%,$(MAKECMDGOALS)),)
$(shell mkdir -p $(BUILD)/slides && echo '$(MEASURED_FIGURES)' | cmp -s - $(MEASURED_LIST) || echo '$(MEASURED_FIGURES)' > $(MEASURED_LIST))
endif
CALIBRATED_ON := NVIDIA H100 80GB HBM3, measured 2026-11-23

.PHONY: slides slides-pdf npm-packages

slides: $(SLIDES)
	@echo "slides: $(words $(SLIDES)) decks in slides/ (open one in a browser; S opens the speaker notes)"

# One npm install for the decks and their browser test, from the committed
# lock file, into build/npm. npm keeps what it downloads in its own cache;
# the installed tree is also kept in NPM_KEEP, under a name taken from the
# lock file, so that the next fresh clone links it instead of unpacking 82
# packages again (make NPM_KEEP= turns that off).
NPM_KEEP ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/cuda-course
npm-packages: $(NPM_STAMP)
$(NPM_STAMP): slides/package.json slides/package-lock.json
	@$(NEED) pandoc command -v pandoc
	@$(NEED) npm command -v npm
	@mkdir -p $(NPM_DIR)
	@cp slides/package.json slides/package-lock.json $(NPM_DIR)/
	@kept="$(NPM_KEEP)/npm-$$(sha256sum < slides/package-lock.json | cut -c1-16)"; \
	if [ -n "$(NPM_KEEP)" ] && [ -f "$$kept/complete" ]; then \
	  rm -rf $(NPM_DIR)/node_modules && ln -s "$$kept/node_modules" $(NPM_DIR)/node_modules && \
	  echo "npm: reveal.js and puppeteer-core as installed before, from $$kept"; \
	else \
	  echo "npm: installing reveal.js and puppeteer-core into $(NPM_DIR) (downloaded once, then from npm's cache)"; \
	  if [ -L $(NPM_DIR)/node_modules ]; then rm $(NPM_DIR)/node_modules; fi; \
	  (cd $(NPM_DIR) && npm ci --prefer-offline --no-audit --no-fund --loglevel=error) || exit 1; \
	  if [ -n "$(NPM_KEEP)" ] && mkdir -p "$$kept.$$$$" 2>/dev/null && cp -a $(NPM_DIR)/node_modules "$$kept.$$$$/" && \
	     touch "$$kept.$$$$/complete"; then rm -rf "$$kept" && mv "$$kept.$$$$" "$$kept"; \
	  else rm -rf "$$kept.$$$$"; fi; \
	fi
	@touch $@

$(REVEAL_KIT)/dist/reveal.js: $(NPM_STAMP) slides/slides.mk
	@rm -rf $(REVEAL_KIT) && mkdir -p $(REVEAL_KIT)/dist/theme/fonts $(REVEAL_KIT)/plugin
	@cp $(REVEAL_SRC)/dist/reset.css $(REVEAL_SRC)/dist/reveal.css $(REVEAL_KIT)/dist/
	@cp -r $(REVEAL_SRC)/plugin/notes $(REVEAL_SRC)/plugin/search $(REVEAL_SRC)/plugin/zoom $(REVEAL_KIT)/plugin/
	@cp $(REVEAL_SRC)/dist/theme/fonts/source-sans-pro/*.woff $(REVEAL_KIT)/dist/theme/fonts/
	@for f in regular:normal:normal italic:normal:italic semibold:600:normal semibolditalic:600:italic; do \
	  set -- $$(echo $$f | tr : ' '); \
	  printf "@font-face { font-family: 'Source Sans Pro'; src: url('fonts/source-sans-pro-%s.woff') format('woff'); font-weight: %s; font-style: %s; }\n" $$1 $$2 $$3; \
	done > $(REVEAL_KIT)/dist/theme/course.css
	@grep -v '@import url(./fonts/' $(REVEAL_SRC)/dist/theme/white.css >> $(REVEAL_KIT)/dist/theme/course.css
	@cp $(REVEAL_SRC)/dist/reveal.js $(REVEAL_KIT)/dist/

# pandoc 2.x spells "embed everything" --self-contained; 3.x --embed-resources.
PANDOC_EMBED = $(shell pandoc --help 2>/dev/null | grep -q -- '--embed-resources' && echo '--embed-resources --standalone' || echo '--self-contained')

# $(call DECK,lesson.md,out.html): one deck. The browser test's self-test
# builds its fixture with the same command.
DECK = pandoc $(1) --lua-filter=slides/lesson-slides.lua -M measure-dir=$(BUILD)/measure \
  -M calibrated='$(CALIBRATED_ON)' -t revealjs $(PANDOC_EMBED) --slide-level=1 \
  --resource-path=lessons:. -V revealjs-url=$(REVEAL_KIT) -V theme=course \
  -V width=1280 -V height=720 -V margin=0.04 -V center=false -V transition=none \
  -V slideNumber=true -V hash=true --mathml --css=slides/course.css -o $(2).tmp && mv $(2).tmp $(2)

slides/%.html: lessons/%.md slides/lesson-slides.lua slides/course.css $(REVEAL_KIT)/dist/reveal.js \
               $(wildcard lessons/figures/*) $(MEASURED_FIGURES) $(wildcard $(MEASURED_LIST))
	@echo "  slides  $< -> $@"
	@$(call DECK,$<,$@)

# All decks in one browser: starting Chromium costs more than printing a deck.
slides-pdf: $(SLIDES) slides/print-pdf.mjs $(NPM_STAMP)
	@test -n "$(CHROMIUM)" || $(NEED) chromium sh -c 'command -v chromium || command -v chromium-browser'
	@node slides/print-pdf.mjs "$(FIND_CHROMIUM)" $(foreach d,$(SLIDES),$(d) $(d:.html=.pdf))
	@echo "slides-pdf: $(words $(SLIDES)) handouts in slides/ (each slide, then its notes)"

# The decks' browser test (make test-slides runs it), after the variables it uses.
include tests/slides/slides.mk
