// Starts the local API server (infra/local_server.py) with demo data, serving client/dist/h5 at /.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const clientDir = fileURLToPath(new URL('..', import.meta.url))
/** The repository whose backend is started (override with SHENGONG_ROOT to test another checkout). */
const repoRoot = process.env.SHENGONG_ROOT ?? path.resolve(clientDir, '..')

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
    srv.on('error', reject)
  })
}

/** The local server on a free port; `env` adds to its environment (e.g. PUSH_VIEWS). */
export async function startServer(env = {}) {
  const h5 = path.join(clientDir, 'dist', 'h5')
  if (!existsSync(path.join(h5, 'index.html'))) throw new Error('client/dist/h5 is missing: npm run build:h5 first')
  const python = path.join(repoRoot, '.venv', 'bin', 'python')
  const port = await freePort()
  const proc = spawn(python, ['-m', 'infra.local_server', '--port', String(port), '--tick', '1', '--workers', '2', '--client-dir', h5], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let log = ''
  proc.stdout.on('data', (d) => { log += d })
  proc.stderr.on('data', (d) => { log = (log + d).slice(-20000) })
  const base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60000
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`local server exited ${proc.exitCode}:\n${log}`)
    try {
      const res = await fetch(`${base}/v1/health`)
      if (res.ok) break
    } catch { /* not up yet */ }
    if (Date.now() > deadline) throw new Error(`local server did not start:\n${log}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    base,
    log: () => log,
    stop: async () => {
      if (proc.exitCode !== null) return
      const exited = new Promise((r) => proc.once('exit', r))
      proc.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 8000))])
      if (proc.exitCode === null) process.kill(-proc.pid, 'SIGKILL')
    },
  }
}

/** A tiny API helper for test setup (logging in, playing moves): the screens are tested in the browser. */
export function apiClient(base) {
  const call = async (method, p, token, body) => {
    const res = await fetch(base + p, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : null }
  }
  const login = async (name) => (await call('POST', '/v1/auth/dev', null, { name })).body.token
  return {
    call,
    login,
    /** A player `name` who claims a 妃子 the 司礼 (token `admin`) makes for her, every attribute `value`; her token. */
    withConsort: async (admin, name, consort, value) => {
      const c = await call('POST', '/v1/admin/consorts', admin, { name: consort, looks: value, talent: value, favor: value, power: value })
      if (c.status !== 200) throw new Error(`添妃子 ${consort}: ${JSON.stringify(c.body)}`)
      const token = await login(name)
      const claim = await call('POST', `/v1/consorts/${c.body.id}/claim`, token)
      if (claim.status !== 200) throw new Error(`${name} claims ${consort}: ${JSON.stringify(claim.body)}`)
      return token
    },
  }
}
