# slides.mk: `make slides` turns each lessons/lessonN-*.md into
# slides/lessonN-*.html, a reveal.js deck that works offline: pandoc embeds
# reveal.js, the theme and the figures into the one HTML file. reveal.js
# comes from its npm package, installed under build/ (never committed).

REVEAL_VERSION := 4.6.1
REVEAL_DIR := $(BUILD)/reveal/node_modules/reveal.js
LESSON_MD := $(sort $(wildcard lessons/lesson*.md))
SLIDES := $(patsubst lessons/%.md,slides/%.html,$(LESSON_MD))

slides: $(SLIDES)
	@echo "Slides: $(words $(SLIDES)) decks in slides/ (open slides/lesson0-*.html in a browser)"

$(REVEAL_DIR)/dist/reveal.js:
	@$(NEED) pandoc command -v pandoc
	@$(NEED) npm command -v npm
	@mkdir -p $(BUILD)/reveal
	npm install --silent --no-audit --no-fund --prefix $(BUILD)/reveal reveal.js@$(REVEAL_VERSION)

# pandoc 2.x spells "embed everything" --self-contained; 3.x --embed-resources.
PANDOC_EMBED = $(shell pandoc --help 2>/dev/null | grep -q -- '--embed-resources' && echo '--embed-resources --standalone' || echo '--self-contained')

slides/%.html: lessons/%.md slides/course.css $(REVEAL_DIR)/dist/reveal.js
	pandoc $< -t revealjs $(PANDOC_EMBED) --shift-heading-level-by=-1 --slide-level=2 \
	  --resource-path=lessons:. -V revealjs-url=$(REVEAL_DIR) -V theme=white \
	  -V transition=none --mathml --css=slides/course.css -o $@
