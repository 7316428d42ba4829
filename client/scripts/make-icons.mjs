// Draws the tab bar icons (81×81 PNG, transparent) from inline SVG with the system Chromium.
// Run once after changing a shape: node scripts/make-icons.mjs (the PNGs are committed).
import { chromium } from 'playwright-core'
import { fileURLToPath } from 'node:url'

const out = fileURLToPath(new URL('../src/assets/tab/', import.meta.url))
const shapes = {
  // a palace hall: sweeping roof, beam, two pillars, steps
  lobby: (c) => `
    <path d="M6 30 Q20 26 28 14 L53 14 Q61 26 75 30 L68 33 L13 33 Z" fill="${c}"/>
    <rect x="18" y="35" width="45" height="5" fill="${c}"/>
    <rect x="22" y="40" width="6" height="24" fill="${c}"/><rect x="53" y="40" width="6" height="24" fill="${c}"/>
    <rect x="34" y="46" width="13" height="18" fill="none" stroke="${c}" stroke-width="4"/>
    <rect x="12" y="64" width="57" height="5" fill="${c}"/><rect x="8" y="70" width="65" height="5" fill="${c}"/>`,
  // a hanging scroll (榜): rods at both ends, lines of names
  boards: (c) => `
    <rect x="14" y="8" width="53" height="6" rx="3" fill="${c}"/>
    <rect x="19" y="14" width="43" height="54" fill="none" stroke="${c}" stroke-width="4"/>
    <rect x="26" y="22" width="29" height="5" fill="${c}"/>
    <rect x="26" y="33" width="22" height="4" fill="${c}"/><rect x="26" y="42" width="26" height="4" fill="${c}"/>
    <rect x="26" y="51" width="18" height="4" fill="${c}"/>
    <rect x="14" y="68" width="53" height="6" rx="3" fill="${c}"/>`,
  // a round court fan (团扇) with its handle and tassel
  me: (c) => `
    <circle cx="40.5" cy="32" r="23" fill="none" stroke="${c}" stroke-width="5"/>
    <path d="M28 38 Q36 24 52 26 Q44 34 28 38 Z" fill="${c}"/>
    <rect x="38" y="55" width="5" height="17" fill="${c}"/>
    <circle cx="40.5" cy="75" r="3.5" fill="${c}"/>`,
}
const colors = { '': '#8A7A63', '-on': '#8B1A1A' }

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
const page = await browser.newPage({ viewport: { width: 81, height: 81 } })
for (const [name, draw] of Object.entries(shapes)) {
  for (const [suffix, color] of Object.entries(colors)) {
    await page.setContent(`<html><body style="margin:0;background:transparent"><svg xmlns="http://www.w3.org/2000/svg" width="81" height="81" viewBox="0 0 81 81">${draw(color)}</svg></body></html>`)
    await page.screenshot({ path: `${out}${name}${suffix}.png`, omitBackground: true })
  }
}
await browser.close()
console.log('icons written to', out)
