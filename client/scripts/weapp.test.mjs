// Checks of the mini-program build (run after `npm run build:weapp`): every page is listed in
// app.json and emitted, the tab bar icons are there, and the main package fits WeChat's 2 MB.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const dist = join(root, 'dist', 'weapp')
const MAIN_PACKAGE_LIMIT = 2 * 1024 * 1024

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? walk(p) : [p]
  })
}

const app = JSON.parse(readFileSync(join(dist, 'app.json'), 'utf8'))

test('app.json lists every page folder of src/pages, and each page is emitted', () => {
  const folders = readdirSync(join(root, 'src', 'pages')).filter((d) => existsSync(join(root, 'src', 'pages', d, 'index.tsx')))
  assert.deepEqual([...app.pages].sort(), folders.map((d) => `pages/${d}/index`).sort())
  for (const page of app.pages) {
    for (const ext of ['js', 'json', 'wxml']) assert.ok(existsSync(join(dist, `${page}.${ext}`)), `${page}.${ext} missing`)
  }
  assert.equal(app.pages[0], 'pages/login/index', 'the mini-program opens on the login page')
})

test('the tab bar is 大厅 / 榜单 / 我的 with its icons', () => {
  assert.deepEqual(app.tabBar.list.map((t) => t.text), ['大厅', '榜单', '我的'])
  for (const t of app.tabBar.list) {
    assert.ok(app.pages.includes(t.pagePath))
    for (const icon of [t.iconPath, t.selectedIconPath]) {
      assert.ok(existsSync(join(dist, icon)), `${icon} missing`)
      assert.ok(statSync(join(dist, icon)).size <= 40 * 1024, `${icon} over WeChat's 40 KB icon limit`)
    }
  }
})

test('the main package is at most 2 MB (no subpackages yet)', () => {
  assert.equal(app.subPackages ?? app.subpackages, undefined)
  const total = walk(dist).filter((f) => !f.endsWith('.LICENSE.txt') && !f.endsWith('project.config.json'))
    .reduce((n, f) => n + statSync(f).size, 0)
  console.log(`weapp main package: ${(total / 1024).toFixed(0)} KB`)
  assert.ok(total <= MAIN_PACKAGE_LIMIT, `main package is ${total} bytes`)
})

test('project.config.json carries the appid from TARO_APP_ID (tourist appid by default)', () => {
  const config = JSON.parse(readFileSync(join(dist, 'project.config.json'), 'utf8'))
  assert.equal(config.appid, process.env.TARO_APP_ID || 'touristappid')
  assert.equal(config.miniprogramRoot, './')
})

test('the API base is absolute in the mini-program and nothing calls fetch', () => {
  const js = walk(dist).filter((f) => f.endsWith('.js')).map((f) => readFileSync(f, 'utf8')).join('\n')
  const base = (process.env.SHENGONG_API_BASE || 'http://127.0.0.1:8000').replace(/\/+$/, '')
  assert.ok(js.includes(`baseUrl:"${base}"`), 'the configured API base is compiled in')
  assert.ok(!/[^.\w]fetch\(/.test(js), 'no global fetch call in the weapp bundle')
})
