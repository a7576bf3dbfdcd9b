// Reads HOST, PORT and WORKERS (SPEC 0.1, 0.2) and serves the app in WORKERS processes, each
// listening on the port itself with SO_REUSEPORT.
import type { Subprocess } from 'bun'
import { fetch, maxRequestBodySize, onError, routes } from './app'

// Set in the processes the primary spawns; the primary itself has none.
const WORKER_ENV = 'BUN_SERVE_WORKER'

function fail(message: string): never {
	console.error(`bun-serve: ${message}`)
	process.exit(1)
}

function intFromEnv(name: string, fallback: number, min: number, max: number) {
	const raw = process.env[name]
	if (raw === undefined || raw === '') return fallback
	const value = Number(raw)
	if (!/^\d+$/.test(raw) || value < min || value > max)
		fail(`${name} must be an integer from ${min} to ${max}, got "${raw}"`)
	return value
}

const hostname = process.env.HOST || '0.0.0.0'
const port = intFromEnv('PORT', 8080, 1, 65535)
const workers = intFromEnv('WORKERS', 1, 1, 1024)

try {
	// The kernel (SO_REUSEPORT) spreads connections over the processes listening on the port.
	Bun.serve({
		hostname,
		port,
		reusePort: true,
		development: false,
		maxRequestBodySize,
		routes,
		fetch,
		error: onError
	})
} catch (cause) {
	fail(`cannot listen on ${hostname}:${port}: ${(cause as Error).message}`)
}

if (process.env[WORKER_ENV] === undefined) {
	superviseWorkers(workers - 1)
} else {
	// The IPC channel closes when the primary dies, even by SIGKILL: do not outlive it.
	process.on('disconnect', () => process.exit(0))
}

// The primary serves too and spawns WORKERS - 1 copies of itself. If one dies, it stops them all
// and exits 1 rather than serve with fewer workers than asked.
function superviseWorkers(count: number) {
	let stopping = false
	const children: Subprocess[] = []

	const stop = async (exitCode: number) => {
		if (stopping) return
		stopping = true
		for (const child of children) child.kill('SIGTERM')
		await Promise.all(children.map((child) => child.exited))
		process.exit(exitCode)
	}

	for (let index = 1; index <= count; index++) {
		const child = Bun.spawn([process.execPath, Bun.main], {
			env: { ...process.env, [WORKER_ENV]: String(index) },
			stdio: ['ignore', 'inherit', 'inherit'],
			ipc() {},
			onExit(_, exitCode, signalCode) {
				if (stopping) return
				// A worker told to stop (the whole process tree signalled at once) is a shutdown.
				const told = signalCode === 'SIGTERM' || signalCode === 'SIGINT'
				if (!told)
					console.error(`bun-serve: worker ${index} exited (${signalCode ?? `code ${exitCode}`}), stopping`)
				void stop(told ? 0 : 1)
			}
		})
		children.push(child)
	}

	process.on('SIGTERM', () => void stop(0))
	process.on('SIGINT', () => void stop(0))
}
