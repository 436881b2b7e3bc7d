// print-pdf.mjs: lesson handouts, each slide followed by its speaker
// notes, printed by Chromium from reveal.js's print view.
//
//   node slides/print-pdf.mjs /usr/bin/chromium slides/lesson3-x.html slides/lesson3-x.pdf [DECK PDF]...
//   (make slides-pdf runs it for every deck, in one browser; NPM_DIR says
//   where puppeteer-core was installed, build/npm by default)

import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(resolve(process.env.NPM_DIR || 'build/npm', 'package.json'));
const puppeteer = require('puppeteer-core');

const [chromium, ...pairs] = process.argv.slice(2);
if (!chromium || pairs.length === 0 || pairs.length % 2) {
  console.error('usage: node print-pdf.mjs CHROMIUM DECK.html OUT.pdf [DECK.html OUT.pdf]...');
  process.exit(2);
}

const profile = mkdtempSync(join(tmpdir(), 'course-chromium-'));
const browser = await puppeteer.launch({
  executablePath: chromium, headless: true, userDataDir: profile,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  for (let k = 0; k < pairs.length; k += 2) {
    const [deck, out] = [pairs[k], pairs[k + 1]];
    const page = await browser.newPage();
    // The deck is self-contained: refuse anything that would leave the file.
    await page.setRequestInterception(true);
    page.on('request', r => (/^(file|data|blob|about):/.test(r.url()) ? r.continue() : r.abort()));
    await page.setViewport({ width: 1280, height: 720 });
    // reveal.js reads its settings from the query string too: the print
    // layout, with each slide's notes on a page of their own after it.
    const url = pathToFileURL(resolve(deck)).href + '?print-pdf&showNotes=separate-page';
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.Reveal && Reveal.isReady() &&
                               document.querySelector('.reveal .pdf-page'), { timeout: 30000 });
    const slides = await page.evaluate(async () => {
      for (const img of document.querySelectorAll('img[data-src]'))
        if (!img.getAttribute('src')) img.setAttribute('src', img.getAttribute('data-src'));
      await Promise.all([...document.images].map(i => i.decode().catch(() => {})));
      await document.fonts.ready;
      return [document.querySelectorAll('.reveal .pdf-page').length,
              document.querySelectorAll('.reveal .speaker-notes-pdf').length];
    });
    await page.pdf({ path: out, preferCSSPageSize: true, printBackground: true });
    await page.close();
    if (!(statSync(out).size > 0)) throw new Error(`${out} is empty`);
    console.log(`  pdf     ${deck} -> ${out} (${slides[0]} slides, ${slides[1]} with notes)`);
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
