// selftest.mjs: the slide checks must be able to fail. Plants one fault of
// each kind the checks look for and expects each to be reported.
//
//   node tests/slides/selftest.mjs CHROMIUM build/slides-selftest/broken-deck.html
//   (make test-slides runs it after building the fixture deck from
//   tests/slides/fixtures/broken-deck.md with the decks' own pandoc command)
//
// 1. The slide filter stops the build on a section with nothing for its
//    slide, on a misspelt marker, and on a number in the slide words that
//    the section does not have; it shows the calibrated figures,
//    labelled as such, or the instructor's own from build/measure/.
// 2. The browser check, on the fixture deck with faults planted after the
//    build, reports: a slide running off the bottom at both sizes, a request
//    to the network, an image that does not load, prose missing from the
//    notes, and a median slide of more than 50 words.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const [chromium, deck] = process.argv.slice(2);
const here = dirname(new URL(import.meta.url).pathname);
const fixtures = join(here, 'fixtures');
let failed = 0, passed = 0;

function expect(what, ok, output) {
  if (ok) { passed++; return; }
  failed++;
  console.log(`FAIL slides self-test: ${what}`);
  if (output) console.log(output.split('\n').map(l => '   | ' + l).join('\n'));
}

// 1. The filter's refusals.
for (const [file, message] of [['no-slide-words.md', 'nothing to show on the slide'],
                               ['bad-marker.md', 'is not a slide marker'],
                               ['stale-number.md', 'its slide words say 2.50, which the section does not']]) {
  const r = spawnSync('pandoc', [join(fixtures, file), '--lua-filter=slides/lesson-slides.lua',
                                 '-t', 'revealjs', '-o', '/dev/null'], { encoding: 'utf8' });
  expect(`the slide filter accepts ${file}; it must stop with "${message}"`,
         r.status !== 0 && r.stderr.includes(message), r.stderr);
}

// The figures: the calibrated ones, labelled as such, unless the instructor
// measured their own (build/measure/), then those, with their GPU and date.
const measure = join(dirname(deck), 'measure');
rmSync(measure, { recursive: true, force: true });
mkdirSync(measure, { recursive: true });
const figureSlides = () => spawnSync('pandoc', [join(fixtures, 'figures.md'), '--lua-filter=slides/lesson-slides.lua',
  '-M', `measure-dir=${measure}`, '-M', 'calibrated=Calibration GPU, measured 2030-01-01', '-t', 'html'],
  { encoding: 'utf8' }).stdout;
let figs = figureSlides();
expect('without measurements, the slides do not show the calibrated figures, labelled as such',
       (figs.match(/src="figures\/(lesson2-offset|prefetch-sweep)\.png"/g) || []).length === 2 &&
       (figs.match(/Calibrated figure: Calibration GPU, measured 2030-01-01/g) || []).length === 2, figs);
copyFileSync('lessons/figures/lesson2-offset.png', join(measure, 'lesson2-offset.png'));
copyFileSync('lessons/figures/prefetch-sweep.png', join(measure, 'prefetch-sweep.png'));
writeFileSync(join(measure, 'coalescing.tsv'), '# gpu: Test GPU 9000\n# date: 2031-02-03\nkind\toffset_or_stride\tGBps\noffset\t0\t100.0\n');
writeFileSync(join(measure, 'prefetch-sweep.tsv'), '# PDIST sweep, seed 1\n# date: 2031-04-05\n' +
  'PDIST\texercise\toutcome\tspeedup\tsolution_speedup\tbaseline_ms\tkernel_ms\tsolution_ms\tgpu\n' +
  '2\tlesson6/batched_smem\tPASS\t1.2\t1.2\t1\t1\t1\tSweep GPU 7000\n');
figs = figureSlides();
expect('after make measure, the offset slide does not show the measured figure with its GPU and date',
       figs.includes(`src="${measure}/lesson2-offset.png"`) &&
       figs.includes('Measured on this machine: Test GPU 9000, 2031-02-03'), figs);
expect('after make sweep, the sweep slide does not show the measured figure with its GPU and date',
       figs.includes(`src="${measure}/prefetch-sweep.png"`) &&
       figs.includes('Measured on this machine: Sweep GPU 7000, 2031-04-05'), figs);

// 2. Faults planted in the built fixture deck.
let html = readFileSync(deck, 'utf8');
const notes = /(<section id="notes-removed"[\s\S]*?)<aside class="notes">[\s\S]*?<\/aside>/;
const outside = /(<section id="outside-requests"[^>]*>[\s\S]*?<\/h1>)/;
if (!notes.test(html) || !outside.test(html)) {
  console.log(`FAIL slides self-test: ${deck} does not have the fixture's slides`);
  process.exit(1);
}
html = html.replace(notes, '$1')
           .replace(outside, '$1<p><img src="http://127.0.0.1:9/planted.png" alt="network">' +
                             '<img src="planted-missing-file.png" alt="missing"></p>');
const dir = join(dirname(deck), 'tampered');
mkdirSync(dir, { recursive: true });
const tampered = join(dir, basename(deck));
writeFileSync(tampered, html);

const r = spawnSync('node', [join(here, 'check-decks.mjs'), chromium, tampered], {
  encoding: 'utf8', env: { ...process.env, LESSON_DIR: fixtures },
});
const out = r.stdout + r.stderr;
expect('the browser check passed a deck with planted faults', r.status === 1, out);
for (const [what, re] of [
  ['a slide running off the bottom at 1280x720', /at 1280x720, slide 2 "Too long": .*reaches/],
  ['a slide running off the bottom at 1920x1080', /at 1920x1080, slide 2 "Too long": .*reaches/],
  ['a request to the network', /requests http:\/\/127\.0\.0\.1:9\/planted\.png from the network/],
  ['an image that does not load', /an image does not load \(planted-missing-file\.png\)/],
  ['prose missing from the notes', /section "Notes removed" is in none of its slides' notes: "This paragraph must be missed/],
  ['a median slide of more than 50 words', /the median slide shows \d+ words/],
])
  expect(`the browser check did not report ${what}`, re.test(out), out);
expect('the browser check complained about a slide without a fault (the title slide)',
       !/slide 1 "/.test(out), out);

console.log(`slides self-test: ${passed} passed, ${failed} failed (the checks catch what they must)`);
process.exit(failed ? 1 : 0);
