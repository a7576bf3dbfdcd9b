'use strict'

const cluster = require('node:cluster')
const { createApp } = require('./app')

function fail (message) {
  console.error(`node-express: ${message}`)
  process.exit(1)
}

function intFromEnv (name, fallback, min, max) {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    fail(`${name} must be an integer from ${min} to ${max}, got "${raw}"`)
  }
  return value
}

const host = process.env.HOST || '0.0.0.0'
const port = intFromEnv('PORT', 8080, 1, 65535)
const workers = intFromEnv('WORKERS', 1, 1, 1024)

if (workers > 1 && cluster.isPrimary) {
  superviseWorkers(workers)
} else {
  serve()
}

/** One serving process: WORKERS=1 is just this, with no primary around it. */
function serve () {
  const app = createApp()
  const server = app.listen(port, host, (error) => {
    // Express 5 passes the server's 'error' event (EADDRINUSE, EACCES) to this callback.
    if (error) fail(`cannot listen on ${host}:${port}: ${error.message}`)
  })
  const stop = () => {
    server.close(() => process.exit(0))
    // Keep-alive connections hold close() open; SIGTERM means stop now, not when they go.
    server.closeAllConnections()
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  if (cluster.isWorker) {
    // The primary is gone (even by SIGKILL) when the IPC channel closes: do not outlive it.
    process.on('disconnect', () => process.exit(0))
  }
}

/**
 * WORKERS > 1: a primary that runs no app forks WORKERS workers, each running serve().
 * On Node the primary keeps Node's default scheduling on Linux, round-robin (SCHED_RR): it accepts
 * each new connection and hands it to the next worker, which then serves every request on it.
 * SCHED_NONE (workers accept from the shared socket) leaves the primary idle but lets one worker
 * take a burst of connections alone: 32 connections opened at once all landed in one of two
 * workers here. On Bun, node:cluster binds each worker's socket with SO_REUSEPORT instead (the
 * kernel spreads connections, the primary accepts none) and the policy has no effect.
 */
function superviseWorkers (count) {
  cluster.schedulingPolicy = cluster.SCHED_RR
  let stopping = false

  const stop = (exitCode) => {
    if (stopping) return
    stopping = true
    const alive = Object.values(cluster.workers).filter((worker) => !worker.isDead())
    if (alive.length === 0) process.exit(exitCode)
    let left = alive.length
    for (const worker of alive) {
      worker.once('exit', () => {
        if (--left === 0) process.exit(exitCode)
      })
      worker.process.kill('SIGTERM')
    }
  }

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return
    // A worker told to stop (the whole tree signalled at once) is a shutdown, not a failure.
    const told = signal === 'SIGTERM' || signal === 'SIGINT' || (signal === null && code === 0)
    if (!told) {
      console.error(`node-express: worker ${worker.id} exited (${signal ?? `code ${code}`}), stopping`)
    }
    stop(told ? 0 : 1)
  })

  for (let index = 0; index < count; index++) cluster.fork()

  process.on('SIGTERM', () => stop(0))
  process.on('SIGINT', () => stop(0))
}
