/**
 * Tap targets of the shared styles are at least TAP_MIN px tall (the design width is 375: a px here is a
 * px on a phone's screen): a seal button of any size, a chip, a tab, the stepper's ±, a sheet's ×.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const TAP_MIN = 32

function css(path: string): string {
  return readFileSync(new URL(path, import.meta.url), 'utf8')
}

/** The declarations of the rule whose selector is exactly `selector`, in the file's order. */
function rule(text: string, selector: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const m of text.matchAll(/([^{}]+)\{([^}]*)\}/g)) {
    if (m[1].replace(/\/\*[\s\S]*?\*\//g, '').trim() !== selector) continue
    for (const d of m[2].split(';')) {
      const [k, v] = d.split(':').map((x) => x?.trim())
      if (k && v) out[k] = v
    }
  }
  return out
}

/** How tall the rule makes its box at least: min-height or height, else padding plus one line of text. */
function tall(decl: Record<string, string>): number {
  const px = (v: string | undefined) => (v ? parseFloat(v) : 0)
  const fixed = Math.max(px(decl['min-height']), px(decl.height))
  if (fixed) return fixed
  const pad = (decl.padding ?? '0').split(/\s+/).map(px)
  return pad[0] + (pad[2] ?? pad[0]) + px(decl['font-size']) * 1.5
}

describe('tap targets in the shared styles', () => {
  const app = css('./app.css')
  it.each(['.seal', '.seal-small', '.seal-big', '.chip', '.stepper-btn'])('%s is at least 32px tall', (selector) => {
    const decl = rule(app, selector)
    expect(Object.keys(decl).length).toBeGreaterThan(0)
    expect(tall(decl)).toBeGreaterThanOrEqual(TAP_MIN)
  })
  it('a board tab and a sheet\'s close are at least 32px tall', () => {
    expect(tall(rule(css('./pages/boards/index.css'), '.tab'))).toBeGreaterThanOrEqual(TAP_MIN)
    expect(tall(rule(css('./components/Sheet.css'), '.sheet-close'))).toBeGreaterThanOrEqual(TAP_MIN)
  })
})
