// Reads HOST, PORT and WORKERS (SPEC 0.1, 0.2) and serves the app: in this process when
// WORKERS=1, in WORKERS node:cluster worker processes otherwise.
import cluster from 'node:cluster'
import { createServer } from 'node:http'
import { handle } from './app.js'

function fail(message) {
	console.error(`node-http: ${message}`)
	process.exit(1)
}

function intFromEnv(name, fallback, min, max) {
	const raw = process.env[name]
	if (raw === undefined || raw === '') return fallback
	const value = Number(raw)
	if (!/^\d+$/.test(raw) || value < min || value > max)
		fail(`${name} must be an integer from ${min} to ${max}, got "${raw}"`)
	return value
}

const host = process.env.HOST || '0.0.0.0'
const port = intFromEnv('PORT', 8080, 1, 65535)
const workers = intFromEnv('WORKERS', 1, 1, 1024)

if (workers > 1 && cluster.isPrimary) {
	superviseWorkers(workers)
} else {
	// A cluster worker's listen is handed to the primary, which shares the port among them.
	const server = createServer(handle)
	server.on('error', (error) => fail(`cannot listen on ${host}:${port}: ${error.message}`))
	server.listen(port, host)
	// close() stops accepting and closes idle keep-alive connections; requests in flight finish.
	const stop = () => server.close(() => process.exit(0))
	process.on('SIGTERM', stop)
	process.on('SIGINT', stop)
}

// The primary serves nothing itself: it forks the workers and stops them all if one dies, rather
// than serve with fewer workers than asked. A worker exits on its own when the primary dies.
function superviseWorkers(count) {
	let stopping = false
	const stop = (exitCode) => {
		if (stopping) return
		stopping = true
		const running = Object.values(cluster.workers).filter((worker) => !worker.isDead())
		const exited = running.map((worker) => new Promise((resolve) => worker.process.once('exit', resolve)))
		for (const worker of running) worker.process.kill('SIGTERM')
		Promise.all(exited).then(() => process.exit(exitCode))
	}
	cluster.on('exit', (worker, code, signal) => {
		if (stopping) return
		// A worker that stopped cleanly was told to (the whole process tree signalled at once).
		const clean = code === 0 || signal === 'SIGTERM' || signal === 'SIGINT'
		if (!clean) console.error(`node-http: worker ${worker.id} exited (${signal ?? `code ${code}`}), stopping`)
		stop(clean ? 0 : 1)
	})
	for (let i = 0; i < count; i++) cluster.fork()
	process.on('SIGTERM', () => stop(0))
	process.on('SIGINT', () => stop(0))
}
