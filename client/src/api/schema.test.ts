import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

describe('schema.d.ts', () => {
  it('is what `npm run gen:api` makes from ../openapi/openapi.json (regenerate and commit when it fails)', () => {
    const script = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')).scripts['gen:api'] as string
    const args = script.replace(/^openapi-typescript\s+/, '').split(/\s+/)
    const bin = `${root}/node_modules/.bin/openapi-typescript`
    let out = ''
    let failed = false
    try {
      out = execFileSync(bin, [...args, '--check'], { cwd: root, encoding: 'utf8', stdio: 'pipe' })
    } catch (e) {
      failed = true
      out = String((e as { stdout?: string }).stdout ?? '') + String((e as { stderr?: string }).stderr ?? '')
    }
    expect(failed, `src/api/schema.d.ts is stale:\n${out}`).toBe(false)
  })
})
