// check-decks.mjs: open every lesson deck in a real Chromium and check what
// an instructor projecting it would see.
//
//   NPM_DIR=build/npm node tests/slides/check-decks.mjs CHROMIUM slides/lesson*.html
//   (make test-slides runs it; SHOTS=dir also saves a PNG of every slide
//   at 1280x720)
//
// Fails when, in any deck:
//   * a slide's content runs past the edge of the slide, or is clipped
//     inside a scroll box, at 1280x720 or at 1920x1080;
//   * an image does not load;
//   * the page requests anything but its own file and data: URLs;
//   * a paragraph or list of the lesson's prose is in no speaker note of the
//     slides made from its section (lessons/README.md: page = slide + notes);
//   * S does not open the speaker view with the slide's notes, or the print
//     view of make slides-pdf lacks a slide or a notes page (first deck);
//   * the median slide shows more than 50 words.
// Prints, per deck, the slides and their visible words, then the totals.

import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// puppeteer-core is installed under build/npm (make npm-packages), not here.
const require = createRequire(resolve(process.env.NPM_DIR || 'build/npm', 'package.json'));
const puppeteer = require('puppeteer-core');

const SIZES = [[1280, 720], [1920, 1080]];
const MAX_MEDIAN_WORDS = 50;
const [chromium, ...decks] = process.argv.slice(2);
const shots = process.env.SHOTS;
if (!chromium || decks.length === 0) {
  console.error('usage: node check-decks.mjs CHROMIUM DECK.html...');
  process.exit(2);
}

// ---- The lesson's prose, read from its markdown by pandoc, not by the
// slide filter: every paragraph, list item and quote, with its section.

function inlineText(inls, out) {
  for (const x of inls) {
    switch (x.t) {
      case 'Str': out.push(x.c); break;
      case 'Space': case 'SoftBreak': case 'LineBreak': out.push(' '); break;
      case 'Code': out.push(x.c[1]); break;
      case 'Math': out.push('\u0001'); break;          // compared piecewise
      case 'RawInline': break;
      case 'Emph': case 'Strong': case 'Strikeout': case 'Superscript':
      case 'Subscript': case 'SmallCaps': case 'Underline': inlineText(x.c, out); break;
      case 'Quoted': inlineText(x.c[1], out); break;
      case 'Cite': inlineText(x.c[1], out); break;
      case 'Link': case 'Image': inlineText(x.c[1], out); break;
      case 'Span': inlineText(x.c[1], out); break;
      case 'Note': break;
      default: throw new Error(`inline ${x.t} not handled`);
    }
  }
  return out;
}

function proseOf(block, out) {
  switch (block.t) {
    case 'Para': case 'Plain':
      if (block.c.length === 1 && block.c[0].t === 'Image') return;   // a figure
      out.push(inlineText(block.c, []).join(''));
      return;
    case 'BulletList': block.c.forEach(item => item.forEach(b => proseOf(b, out))); return;
    case 'OrderedList': block.c[1].forEach(item => item.forEach(b => proseOf(b, out))); return;
    case 'BlockQuote': case 'Div': (block.t === 'Div' ? block.c[1] : block.c).forEach(b => proseOf(b, out)); return;
    default: return;   // code, tables, raw HTML (the slide markup), headers
  }
}

const norm = s => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

function lessonProse(deck) {
  const md = join(process.env.LESSON_DIR || 'lessons', basename(deck).replace(/\.html$/, '.md'));
  const ast = JSON.parse(execFileSync('pandoc', [md, '-t', 'json'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
  const prose = [];
  let section = null;
  for (const b of ast.blocks) {
    if (b.t === 'Header' && b.c[0] <= 3) { section = inlineText(b.c[2], []).join(''); continue; }
    const texts = [];
    proseOf(b, texts);
    for (const t of texts)
      for (const piece of t.split('\u0001'))
        if (norm(piece).length > 0) prose.push({ section, text: piece.trim() });
  }
  return prose;
}

// ---- In the page.

// Navigate to every slide at the current size, and report for each: its
// section, title, visible words, notes text and what sticks out.
function inspectSlides() {
  const box = document.querySelector('.reveal .slides').getBoundingClientRect();
  const out = [];
  const slides = Reveal.getSlides();
  for (const slide of slides) {
    const idx = Reveal.getIndices(slide);
    Reveal.slide(idx.h, idx.v);
    const scale = Reveal.getScale();
    const tol = 1.5 * Math.max(scale, 1);
    const problems = [];
    const outside = r => r.width > 0 && r.height > 0 &&
      (r.left < box.left - tol || r.top < box.top - tol || r.right > box.right + tol || r.bottom > box.bottom + tol);
    const where = r => `${Math.round((r.right - box.left) / scale)}x${Math.round((r.bottom - box.top) / scale)}`;
    const notes = slide.querySelector('aside.notes');
    const walker = document.createTreeWalker(slide, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode: n => (notes && notes.contains(n)) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
    });
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      let r;
      if (n.nodeType === Node.TEXT_NODE) {
        if (!n.textContent.trim()) continue;
        // A line of text: its glyph box is taller than its line box (by the
        // font's ascent and descent), so let it pass the edge by a tenth of
        // its height; a line cut off for real passes by far more.
        const range = document.createRange();
        range.selectNodeContents(n);
        const t = range.getBoundingClientRect();
        const lineHeight = Math.min(...[...range.getClientRects()].map(q => q.height).filter(h => h > 0), t.height);
        const slack = 0.1 * lineHeight;
        r = { left: t.left, right: t.right, width: t.width, height: t.height,
              top: t.top + slack, bottom: t.bottom - slack };
      } else {
        if (n === slide) continue;
        r = n.getBoundingClientRect();
        const cs = getComputedStyle(n);
        if (cs.display === 'none') continue;
        if (/(auto|scroll|hidden)/.test(cs.overflowX + cs.overflowY) &&
            (n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1))
          problems.push(`<${n.tagName.toLowerCase()}> clips its content (${n.scrollWidth}x${n.scrollHeight} in ${n.clientWidth}x${n.clientHeight})`);
      }
      if (outside(r)) {
        const what = n.nodeType === Node.TEXT_NODE ? `text "${n.textContent.trim().slice(0, 40)}"` : `<${n.tagName.toLowerCase()}>`;
        problems.push(`${what} reaches ${where(r)}`);
      }
    }
    const visible = slide.innerText || '';
    const words = visible.split(/\s+/).filter(w => /[\p{L}\p{N}]/u.test(w)).length;
    let notesText = '';
    if (notes) {
      const copy = notes.cloneNode(true);
      copy.querySelectorAll('math').forEach(m => m.replaceWith(' '));
      notesText = copy.textContent;
    }
    out.push({
      index: idx.h, section: slide.getAttribute('data-section') || '',
      title: (slide.querySelector('h1') || {}).textContent || '',
      words, notesText, problems: [...new Set(problems)].slice(0, 4),
    });
  }
  Reveal.slide(0, 0);
  return out;
}

// ---- The run.

const profile = mkdtempSync(join(tmpdir(), 'course-chromium-'));
const browser = await puppeteer.launch({
  executablePath: chromium, headless: true, userDataDir: profile,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

// One deck: every check above, at both sizes. Returns the lines to print,
// the failures and the visible words of each slide.
async function checkDeck(deck) {
  const name = basename(deck);
  const started = Date.now();
  const out = { lines: [], failures: [], words: [] };
  const page = await browser.newPage();
  const network = [];
  const broken = [];
  await page.setRequestInterception(true);
  page.on('request', req => {
    const url = req.url();
    if (/^(file|data|blob|about):/.test(url)) req.continue();
    else { network.push(url); req.abort(); }
  });
  page.on('requestfailed', req => {
    if (!network.includes(req.url())) broken.push(req.url().slice(0, 80));
  });
  page.on('pageerror', err => out.failures.push(`${name}: script error: ${err.message}`));
  await page.setViewport({ width: SIZES[0][0], height: SIZES[0][1] });
  await page.goto(pathToFileURL(resolve(deck)).href, { waitUntil: 'load' });
  await page.waitForFunction(() => window.Reveal && Reveal.isReady(), { timeout: 20000 });
  await page.evaluate(() => document.fonts.ready);

  // reveal.js loads a slide's images when it comes near: visit every
  // slide, then wait for each image to load or fail, before measuring.
  const images = await page.evaluate(async () => {
    for (const s of Reveal.getSlides()) { const i = Reveal.getIndices(s); Reveal.slide(i.h, i.v); }
    Reveal.slide(0, 0);
    return Promise.all([...document.images].map(async img => {
      const src = (img.getAttribute('src') || img.getAttribute('data-src') || '').slice(0, 60);
      try { await img.decode(); } catch (e) { /* reported below */ }
      return { ok: img.complete && img.naturalWidth > 0, src };
    }));
  });
  for (const i of images) if (!i.ok) out.failures.push(`${name}: an image does not load (${i.src || 'no src'})`);

  let bySize = [];
  for (const [w, h] of SIZES) {
    await page.setViewport({ width: w, height: h });
    await page.evaluate(() => Reveal.layout());
    const slides = await page.evaluate(inspectSlides);
    for (const s of slides)
      for (const p of s.problems)
        out.failures.push(`${name} at ${w}x${h}, slide ${s.index + 1} "${s.title}": ${p}`);
    bySize.push(slides);
  }
  if (shots) {
    mkdirSync(shots, { recursive: true });
    await page.setViewport({ width: 1280, height: 720 });
    const n = bySize[0].length;
    for (let i = 0; i < n; i++) {
      await page.evaluate(k => { Reveal.slide(k); Reveal.layout(); }, i);
      await page.screenshot({ path: join(shots, `${name.replace(/\.html$/, '')}-${String(i + 1).padStart(2, '0')}.png`) });
    }
  }
  if (!(await page.evaluate(() => Reveal.hasPlugin('notes'))))
    out.failures.push(`${name}: no speaker notes plugin: S would open nothing`);
  // Once (it is the same plugin in every deck): S opens the speaker view,
  // offline, with the notes of the current slide.
  if (deck === decks[0] && bySize[0].length > 1) {
    await page.evaluate(() => Reveal.slide(1));
    const popup = new Promise(r => page.once('popup', r));
    await page.bringToFront();
    await page.keyboard.press('s');
    const view = await Promise.race([popup, new Promise(r => setTimeout(() => r(null), 10000))]);
    if (!view) out.failures.push(`${name}: S opened no speaker view`);
    else {
      view.on('request', req => { if (!/^(file|data|blob|about):/.test(req.url())) network.push(req.url()); });
      const shown = await view.waitForFunction(() => {
        const v = document.querySelector('.speaker-controls-notes .value');
        return v && v.textContent.trim().length > 0 && v.textContent;
      }, { timeout: 10000 }).then(h => h.jsonValue(), () => '');
      if (!shown || !norm(shown).includes(norm(bySize[0][1].notesText).slice(0, 200)))
        out.failures.push(`${name}: the speaker view does not show slide 2's notes`);
      await view.close();
    }
  }
  // Once: the handout's print view (make slides-pdf) lays out a page per
  // slide, and a notes page after every slide that has notes.
  if (deck === decks[0]) {
    const print = await browser.newPage();
    await print.setRequestInterception(true);
    print.on('request', req => { if (/^(file|data|blob|about):/.test(req.url())) req.continue(); else { network.push(req.url()); req.abort(); } });
    await print.goto(pathToFileURL(resolve(deck)).href + '?print-pdf&showNotes=separate-page', { waitUntil: 'load' });
    const pages = await print.waitForFunction(() => window.Reveal && Reveal.isReady() &&
      document.querySelector('.reveal .pdf-page') &&
      [document.querySelectorAll('.reveal .pdf-page').length, document.querySelectorAll('.reveal .speaker-notes-pdf').length],
      { timeout: 20000 }).then(h => h.jsonValue(), () => [0, 0]);
    const withNotes = bySize[0].filter(x => x.notesText.trim()).length;
    if (pages[0] !== bySize[0].length || pages[1] !== withNotes)
      out.failures.push(`${name}: the print view has ${pages[0]} slide pages and ${pages[1]} notes pages; ` +
                    `expected ${bySize[0].length} and ${withNotes}`);
    await print.close();
  }
  for (const u of network) out.failures.push(`${name}: requests ${u.slice(0, 100)} from the network`);
  for (const u of broken) out.failures.push(`${name}: a resource does not load: ${u}`);

  // Prose: each piece must be in the notes of a slide of its section.
  const slides = bySize[0];
  const notesOf = new Map();
  for (const s of slides) notesOf.set(norm(s.section), (notesOf.get(norm(s.section)) || '') + norm(s.notesText));
  let missing = 0;
  for (const p of lessonProse(deck)) {
    const key = p.section === null ? (slides[0] ? slides[0].section : '') : p.section;
    if (!(notesOf.get(norm(key)) || '').includes(norm(p.text))) {
      if (missing++ < 3)
        out.failures.push(`${name}: prose of section "${key}" is in none of its slides' notes: "${p.text.slice(0, 60)}..."`);
    }
  }
  if (missing > 3) out.failures.push(`${name}: ... and ${missing - 3} more pieces of prose missing from the notes`);

  const words = slides.map(s => s.words);
  const sorted = [...words].sort((a, b) => a - b);
  out.lines.push(`  ${name.padEnd(36)} ${String(slides.length).padStart(3)} slides, words per slide: ` +
                 `median ${sorted[Math.floor((sorted.length - 1) / 2)]}, max ${sorted[sorted.length - 1]}` +
                 ` (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (process.env.VERBOSE)
    for (const s of slides) out.lines.push(`    ${String(s.index + 1).padStart(3)} ${String(s.words).padStart(4)} words  ${s.title.replace(/\s+/g, ' ')}`);
  out.words = words;
  await page.close();
  return out;
}

const failures = [];
const allWords = [];
try {
  // Two decks at a time: most of a deck's time is Chromium laying it out.
  const results = new Array(decks.length);
  let next = 0;
  await Promise.all([0, 1].map(async () => {
    while (next < decks.length) { const k = next++; results[k] = await checkDeck(decks[k]); }
  }));
  for (const r of results) {
    for (const l of r.lines) console.log(l);
    failures.push(...r.failures);
    allWords.push(...r.words);
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}

allWords.sort((a, b) => a - b);
const median = allWords.length ? (allWords[Math.floor((allWords.length - 1) / 2)] + allWords[Math.floor(allWords.length / 2)]) / 2 : 0;
const pct = q => allWords[Math.min(allWords.length - 1, Math.floor(q * allWords.length))];
console.log(`  all decks: ${allWords.length} slides; visible words per slide: median ${median}, ` +
            `90th percentile ${pct(0.9)}, max ${allWords[allWords.length - 1]}`);
if (median > MAX_MEDIAN_WORDS)
  failures.push(`the median slide shows ${median} words; a projected slide should show at most ${MAX_MEDIAN_WORDS}`);

const views = new Set(failures.map(f => (f.match(/^(.* at \d+x\d+, slide \d+) /) || [])[1]).filter(Boolean));
const other = failures.filter(f => !/ at \d+x\d+, slide \d+ /.test(f)).length;
for (const f of failures) console.log(`FAIL ${f}`);
console.log(`slides in Chromium: ${decks.length} decks, ${allWords.length} slides at ${SIZES.map(s => s.join('x')).join(' and ')}: ` +
            `${views.size} overflowing slide views, ${other} other problems`);
process.exit(failures.length ? 1 : 0);
