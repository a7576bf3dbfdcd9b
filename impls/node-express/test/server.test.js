'use strict'

// src/server.js as the orchestrator starts it: HOST, PORT, WORKERS from the environment.
// Run by Node by default; NODE_EXPRESS_RUNTIME=tools/node_modules/.bin/bun checks the bun variant.

const assert = require('node:assert/strict')
const { spawn, spawnSync } = require('node:child_process')
const net = require('node:net')
const path = require('node:path')
const { describe, it } = require('node:test')

const SERVER = path.join(__dirname, '..', 'src', 'server.js')
const RUNTIME = process.env.NODE_EXPRESS_RUNTIME
  ? path.resolve(__dirname, '..', process.env.NODE_EXPRESS_RUNTIME)
  : process.execPath

function environment (extra) {
  return { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', ...extra }
}

/** A port that was free a moment ago. */
async function freePort () {
  const probe = net.createServer()
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address()
  await new Promise((resolve) => probe.close(resolve))
  return port
}

async function waitForPlaintext (base, child) {
  const deadline = Date.now() + 15000
  while (Date.now() < deadline) {
    assert.equal(child.exitCode, null, 'the server exited before answering')
    try {
      const response = await fetch(`${base}/plaintext`)
      if (response.status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  assert.fail('the server did not answer GET /plaintext within 15 s')
}

/** The pids of the processes whose parent is pid (Linux /proc). */
function childrenOf (pid) {
  const result = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
  return result.stdout.split('\n').map((line) => line.trim()).filter(Boolean).map(Number)
}

describe('server.js', () => {
  it('refuses a WORKERS that is not a positive integer, with a message and exit code 1', () => {
    const result = spawnSync(RUNTIME, [SERVER], { env: environment({ PORT: '1', WORKERS: 'two' }), encoding: 'utf8' })
    assert.equal(result.status, 1)
    assert.match(result.stderr, /WORKERS must be an integer from 1 to 1024, got "two"/)
  })

  for (const workers of [1, 2]) {
    it(`WORKERS=${workers} serves from ${workers === 1 ? 'one process and no other' : 'two worker processes'} and stops on SIGTERM`, async () => {
      const port = await freePort()
      const child = spawn(RUNTIME, [SERVER], {
        env: environment({ PORT: String(port), WORKERS: String(workers) }),
        stdio: ['ignore', 'inherit', 'inherit'],
      })
      try {
        await waitForPlaintext(`http://127.0.0.1:${port}`, child)
        assert.equal(childrenOf(child.pid).length, workers === 1 ? 0 : workers)
        const response = await fetch(`http://127.0.0.1:${port}/json`)
        assert.deepEqual(await response.json(), { message: 'Hello, World!' })
      } finally {
        if (child.exitCode !== null || child.signalCode !== null) assert.fail(`the server exited (${child.exitCode ?? child.signalCode})`)
        const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
        child.kill('SIGTERM')
        const { code } = await exited
        assert.equal(code, 0)
      }
      await assert.rejects(fetch(`http://127.0.0.1:${port}/plaintext`), 'nothing listens after SIGTERM')
    })
  }
})
