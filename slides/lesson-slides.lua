-- lesson-slides.lua: a pandoc filter that turns one lesson's markdown into
-- the slides of its reveal.js deck, following lessons/README.md:
--
--   * `# Lesson N: Title` is the title slide; `##` and `###` start slides;
--   * code blocks, tables and figures go on the slide, all prose into the
--     slide's speaker notes (a Div of class "notes");
--   * HTML comments carry the slide markup: `<!-- slide ... -->` (the slide's
--     own words), `<!-- on slide -->`, `<!-- off slide -->`,
--     `<!-- new slide: Title -->`.
--
-- Every slide comes out as a level-1 header (pandoc is run with
-- --slide-level=1), with a data-section attribute naming the lesson section
-- it came from, so the browser test can match notes to sections.
--
-- Figures `figures/NAME.png` are replaced on the slides by
-- <measure-dir>/NAME.png when the instructor has measured their own GPU
-- (make measure / make sweep), labelled with that GPU and date; otherwise
-- they are labelled as the course's calibrated figures.
--
-- Used by slides/slides.mk:
--   pandoc lessons/lesson1-x.md --lua-filter slides/lesson-slides.lua \
--     -M measure-dir=build/measure -M calibrated='GPU, date' -t revealjs ...

local stringify = pandoc.utils.stringify

local source = (PANDOC_STATE.input_files or {})[1] or 'the lesson'

-- Stop the build with a message that says where and what to do.
local function fail(msg)
  io.stderr:write(source .. ': ' .. msg .. '\n  (how slides are marked up: lessons/README.md)\n')
  os.exit(1)
end

-- The figures measured on this machine, and where their numbers came from.
-- A plot's TSV has its name, except the two lesson 2 plots, drawn from one.
local measured_tsv = { ['lesson2-offset'] = 'coalescing', ['lesson2-stride'] = 'coalescing' }

local function file_exists(path)
  local f = io.open(path, 'rb')
  if f then f:close() return true end
  return false
end

-- GPU name and date of a measurement TSV: "# gpu:" / "# date:" comment lines
-- (coalescing.cu), or the 9th column of the first data row (grader --sweep).
local function tsv_origin(path)
  local gpu, date
  local f = io.open(path, 'r')
  if not f then return nil, nil end
  for line in f:lines() do
    gpu = gpu or line:match('^# gpu: (.+)$')
    date = date or line:match('^# date: (.+)$')
    if not gpu and line:match('^%d+\t') then
      local cols = {}
      for c in (line .. '\t'):gmatch('([^\t]*)\t') do cols[#cols + 1] = c end
      if cols[9] and cols[9] ~= '' then gpu = cols[9] end
    end
  end
  f:close()
  return gpu, date
end

local measure_dir, calibrated = 'build/measure', 'the course\'s calibration GPU'

-- Where the slide's copy of a figure comes from: the instructor's own
-- measurement if there is one, else the calibrated one. Returns the image
-- source to use and the caption that says which.
local function figure_source(src)
  local name = src:match('^figures/(.+)%.png$')
  if name and file_exists(measure_dir .. '/' .. name .. '.png') then
    local gpu, date = tsv_origin(measure_dir .. '/' .. (measured_tsv[name] or name) .. '.tsv')
    src = measure_dir .. '/' .. name .. '.png'
    return src, 'Measured on this machine: ' .. (gpu or 'GPU not recorded') .. ', ' ..
                (date or 'date not recorded') .. ' (' .. src .. ')'
  end
  return src, 'Calibrated figure: ' .. calibrated .. ' (lessons/' .. src .. ')'
end

-- A figure: pandoc 2 reads `![caption](file)` alone in a paragraph as a
-- Para holding one Image; pandoc 3 as a Figure block.
local function is_figure(b)
  return (b.t == 'Para' and #b.content == 1 and b.content[1].t == 'Image') or b.t == 'Figure'
end

-- The lesson's caption of a figure, as inlines.
local function figure_caption(b)
  if b.t == 'Figure' then return pandoc.utils.blocks_to_inlines(b.caption.long) end
  return b.content[1].caption
end

-- The slide's copy of a figure, captioned with where it comes from.
local function slide_figure(b)
  if b.t == 'Figure' then
    local label
    b = pandoc.walk_block(b, { Image = function(img)
      img.src, label = figure_source(img.src)
      return img
    end })
    b.caption = { long = { pandoc.Plain({ pandoc.Str(label) }) } }
    return b
  end
  local img = b.content[1]
  local label
  img.src, label = figure_source(img.src)
  img.caption = { pandoc.Str(label) }
  img.title = 'fig:'
  return pandoc.Para({ img })
end

-- What a block is, for the defaults: shown on the slide, or prose.
local function shown_by_default(b)
  return b.t == 'CodeBlock' or b.t == 'Table' or is_figure(b)
end

-- Parse an HTML comment as a marker. Returns kind ('slide', 'on', 'off',
-- 'new') and its argument, nil for an ordinary comment; fails on a comment
-- that looks like a marker but is not one.
local function marker(b)
  if b.t ~= 'RawBlock' or b.format ~= 'html' then return nil end
  local inner = b.text:match('^<!%-%-(.-)%-%->%s*$')
  if not inner then return nil end
  local first, rest = inner:match('^%s*([^\n]*)(.*)$')
  first = first:gsub('%s+$', '')
  if first == 'slide' then return 'slide', rest end
  if first:match('^slide%s') then return 'slide', first:sub(7) .. rest end
  if first == 'on slide' and rest:match('^%s*$') then return 'on' end
  if first == 'off slide' and rest:match('^%s*$') then return 'off' end
  local title = first:match('^new slide%s*:%s*(.-)$')
  if title and title ~= '' and rest:match('^%s*$') then return 'new', title end
  if first == 'new slide' and rest:match('^%s*$') then return 'new', nil end
  if first:lower():match('slide') then
    fail('"<!--' .. first .. ' -->" is not a slide marker: write <!-- slide ... -->, ' ..
         '<!-- on slide -->, <!-- off slide --> or <!-- new slide: Title -->')
  end
  return nil
end

local function new_slide(title, section, id)
  return { title = title, section = section, id = id, shown = pandoc.List(),
           notes = pandoc.List(), words = false, things = 0 }
end

-- The header and body of one slide, for the revealjs writer.
local function emit(s, out, is_title)
  if not is_title and s.things == 0 then
    local where = 'section "' .. s.section .. '"'
    if stringify(s.title) ~= s.section then where = where .. ', slide "' .. stringify(s.title) .. '"' end
    fail(where .. ': nothing to show on the slide. Write its words in a <!-- slide ... --> ' ..
         'comment right under the heading')
  end
  local classes = is_title and { 'lesson-title' } or {}
  out:insert(pandoc.Header(1, s.title, pandoc.Attr(s.id, classes, { ['data-section'] = s.section })))
  out:extend(s.shown)
  if #s.notes > 0 then
    out:insert(pandoc.Div(s.notes, pandoc.Attr('', { 'notes' })))
  end
end

-- The numbers in a text, thousands separators dropped: "2,097,152 × 28"
-- gives 2097152 and 28. Digits that end a name (H100, sm_90, lesson5) are
-- part of the name, not a figure.
local function numbers(text)
  local found = {}
  for at, tok in text:gmatch('()(%d[%d,%.]*)') do
    if at == 1 or not text:sub(at - 1, at - 1):match('[%a_%d]') then
      found[#found + 1] = tok:gsub('[,%.]+$', ''):gsub(',', '')
    end
  end
  return found
end

-- The text of blocks as a reader sees it, code and table cells included,
-- with a space between blocks and list items.
local function text_of(blocks)
  return pandoc.write(pandoc.Pandoc(blocks), 'plain')
end

-- A section's slide words restate it: every number they show must be in
-- the section's own text (its heading, prose, tables, code). Catches a
-- figure corrected in the prose and left stale in the slide comment.
local function check_claims(section, haystack, claims)
  local have = {}
  for _, n in ipairs(numbers(table.concat(haystack, ' '))) do have[n] = true end
  for _, n in ipairs(claims) do
    if not have[n] then
      fail('section "' .. section .. '": its slide words say ' .. n .. ', which the section ' ..
           'does not. Slide words restate their section; if the prose changed, change them too')
    end
  end
end

function Pandoc(doc)
  measure_dir = doc.meta['measure-dir'] and stringify(doc.meta['measure-dir']) or measure_dir
  calibrated = doc.meta['calibrated'] and stringify(doc.meta['calibrated']) or calibrated
  local blocks = doc.blocks
  if #blocks == 0 or blocks[1].t ~= 'Header' or blocks[1].level ~= 1 then
    fail('a lesson starts with its title, "# Lesson N: Title"')
  end
  local out = pandoc.List()
  local title_text = stringify(blocks[1].content)
  local cur = new_slide(blocks[1].content, title_text, blocks[1].identifier)
  local is_title, pending, continued = true, nil, 1
  local haystack, claims = { title_text }, {}

  local function end_section()
    check_claims(cur.section, haystack, claims)
  end

  local function finish()
    if pending then fail('<!-- ' .. pending .. ' slide --> at the end of a section, before no block') end
    emit(cur, out, is_title)
    is_title = false
  end

  for i = 2, #blocks do
    local b = blocks[i]
    local kind, arg = marker(b)
    if b.t == 'Header' and b.level <= 3 then
      if b.level == 1 then fail('one "# " title per lesson; sections are "## "') end
      end_section()
      finish()
      cur = new_slide(b.content, stringify(b.content), b.identifier)
      continued = 1
      haystack, claims = { cur.section }, {}
    elseif kind == 'slide' then
      local words = pandoc.read(arg, 'markdown').blocks
      if #words == 0 then fail('an empty <!-- slide --> comment under "' .. cur.section .. '"') end
      for _, n in ipairs(numbers(text_of(words))) do claims[#claims + 1] = n end
      cur.shown:extend(words)
      cur.words = true
      cur.things = cur.things + 1
    elseif kind == 'on' or kind == 'off' then
      if pending then fail('two markers in a row before a block, under "' .. cur.section .. '"') end
      pending = kind
    elseif kind == 'new' then
      if pending then fail('<!-- ' .. pending .. ' slide --> before a new slide, under "' .. cur.section .. '"') end
      local section, id, title = cur.section, cur.id, cur.title
      finish()
      continued = continued + 1
      if arg then title = pandoc.read(arg, 'markdown').blocks[1].content end
      cur = new_slide(title, section, id .. '-' .. continued)
    else
      if b.t ~= 'RawBlock' then haystack[#haystack + 1] = text_of({ b }) end
      local show = shown_by_default(b)
      if pending == 'on' then
        if show then fail('<!-- on slide --> before a code block, table or figure, which show anyway, under "' .. cur.section .. '"') end
        cur.shown:insert(b)
        cur.things = cur.things + 1
        cur.notes:insert(b)
      elseif show and pending ~= 'off' then
        if is_figure(b) then
          local caption = pandoc.List({ pandoc.Emph({ pandoc.Str('Figure:') }), pandoc.Space() })
          caption:extend(figure_caption(b))
          cur.notes:insert(pandoc.Para(caption))
          b = slide_figure(b)
        end
        cur.shown:insert(b)
        cur.things = cur.things + 1
      else
        if pending == 'off' and not show then
          fail('<!-- off slide --> before prose, which stays off the slide anyway, under "' .. cur.section .. '"')
        end
        cur.notes:insert(b)
      end
      pending = nil
    end
  end
  end_section()
  finish()
  doc.meta.pagetitle = pandoc.MetaString(title_text)
  doc.meta.title = nil
  return pandoc.Pandoc(out, doc.meta)
end
