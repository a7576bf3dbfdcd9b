// The fairbench contract (docs/SPEC.md) on node:http alone: a request listener and its routes.
import { isUtf8 } from 'node:buffer'

const HELLO = 'Hello, World!'
// Over 1 MiB is 413, exactly 1 MiB is accepted (SPEC 4.6, 4.7).
export const MAX_BODY_BYTES = 1024 * 1024
// JSON.parse has no depth limit; deeper bodies are refused (SPEC 5.6), Jackson's default limit.
export const MAX_JSON_DEPTH = 1000

function send(res, status, contentType, body, headers) {
	res.writeHead(status, {
		...headers,
		'Content-Type': contentType,
		'Content-Length': Buffer.byteLength(body)
	})
	res.end(body)
}

const sendJson = (res, status, value, headers) =>
	send(res, status, 'application/json', JSON.stringify(value), headers)

const sendError = (res, status, message, headers) => sendJson(res, status, { error: message }, headers)

const methodNotAllowed = (res, method, allow) =>
	sendError(res, 405, `method ${method} not allowed, use ${allow}`, { Allow: allow })

/**
 * The path of a request target, without its query. An origin-form target (`/json?x=1`, what a
 * client sends a server it talks to directly) is cut at `?`, no URL object per request (and
 * `new URL('//json', base)` would read `json` as a host). An absolute-form target
 * (`http://host/json?x=1`, which a server MUST accept, RFC 9112 §3.2.2) is parsed by WHATWG URL:
 * its path, still percent-encoded, routes like the same origin-form path. Any other target (`*`,
 * another scheme, a malformed URL) is kept whole, so it matches no route (404).
 */
export function targetPath(target) {
	if (target.startsWith('/')) {
		const query = target.indexOf('?')
		return query === -1 ? target : target.slice(0, query)
	}
	let url
	try {
		url = new URL(target)
	} catch {
		return target
	}
	return url.protocol === 'http:' || url.protocol === 'https:' ? url.pathname : target
}

/** The request listener for http.createServer. Routes are case-sensitive and exact. */
export function handle(req, res) {
	const path = targetPath(req.url)
	const get = req.method === 'GET' || req.method === 'HEAD'

	if (path === '/plaintext') {
		if (!get) return methodNotAllowed(res, req.method, 'GET, HEAD')
		return send(res, 200, 'text/plain; charset=utf-8', HELLO)
	}
	if (path === '/json') {
		if (!get) return methodNotAllowed(res, req.method, 'GET, HEAD')
		return sendJson(res, 200, { message: HELLO })
	}
	if (path === '/validate') {
		if (req.method !== 'POST') return methodNotAllowed(res, req.method, 'POST')
		return validate(req, res)
	}
	// /user/{id}: exactly one non-empty segment, so /user/ and /user/a/b are 404.
	if (path.startsWith('/user/') && path.length > 6 && path.indexOf('/', 6) === -1) {
		if (!get) return methodNotAllowed(res, req.method, 'GET, HEAD')
		let id
		try {
			// Decoded once, as UTF-8; '+' stays a plus.
			id = decodeURIComponent(path.slice(6))
		} catch {
			return sendError(res, 400, 'the user id is not valid percent-encoded UTF-8')
		}
		return sendJson(res, 200, { id, name: `User ${id}` })
	}
	sendError(res, 404, `no route for ${req.method} ${path}`)
}

function validate(req, res) {
	// The media type comes first (SPEC 4): 415 whatever the body holds.
	const mediaType = req.headers['content-type']?.split(';', 1)[0].trim().toLowerCase()
	if (mediaType !== 'application/json')
		return sendError(res, 415, 'Content-Type must be application/json')

	const tooLarge = () => sendError(res, 413, `request body is larger than 1 MiB (${MAX_BODY_BYTES} bytes)`)
	if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return tooLarge()

	// Chunked bodies are counted as they arrive. Once over the limit the rest is read and
	// dropped, so the 413 reaches the client and the connection stays usable.
	const chunks = []
	let size = 0
	req.on('data', (chunk) => {
		if (size > MAX_BODY_BYTES) return
		size += chunk.length
		if (size > MAX_BODY_BYTES) return tooLarge()
		chunks.push(chunk)
	})
	req.on('end', () => {
		if (size > MAX_BODY_BYTES) return
		const result = decodeUserInput(Buffer.concat(chunks, size))
		if (result.error) return sendError(res, 400, result.error)
		sendJson(res, 200, { name: result.name, age: result.age, valid: true })
	})
	// A body cut short (the client went away) has no one left to answer.
	req.on('error', () => {})
}

/**
 * The body rules of SPEC 5-8: UTF-8 JSON per RFC 8259 (JSON.parse: no NaN, no trailing data, no
 * raw control characters), an object, a non-empty string `name` and an integer `age` in 0..150.
 * Keys are exact and of duplicates the last one wins, as JSON.parse does.
 */
export function decodeUserInput(bytes) {
	// Buffer#toString would replace invalid UTF-8 with U+FFFD instead of failing (SPEC 5.7).
	if (!isUtf8(bytes)) return { error: 'request body is not valid UTF-8' }
	let body
	try {
		body = JSON.parse(bytes.toString('utf8'))
	} catch (error) {
		return { error: `request body is not valid JSON: ${error.message}` }
	}
	if (typeof body !== 'object' || body === null || Array.isArray(body))
		return { error: `request body must be a JSON object, got ${kind(body)}` }
	if (nestsDeeperThan(body, MAX_JSON_DEPTH))
		return { error: `request body is nested deeper than ${MAX_JSON_DEPTH} levels` }

	const { name, age } = body
	if (name === undefined) return { error: 'name is required' }
	if (typeof name !== 'string' || name.length === 0)
		return { error: `name must be a non-empty string, got ${kind(name)}` }
	if (age === undefined) return { error: 'age is required' }
	// JSON numbers are doubles: 30.0 and 3e1 are the integer 30 (SPEC 7.10); 1e400 is Infinity.
	if (!Number.isInteger(age) || age < 0 || age > 150)
		return { error: `age must be an integer from 0 to 150, got ${kind(age)}` }
	return { name, age }
}

function nestsDeeperThan(value, limit) {
	if (typeof value !== 'object' || value === null) return false
	if (limit === 0) return true
	for (const child of Array.isArray(value) ? value : Object.values(value))
		if (nestsDeeperThan(child, limit - 1)) return true
	return false
}

function kind(value) {
	if (value === null) return 'null'
	if (Array.isArray(value)) return 'an array'
	if (typeof value === 'number') return String(value)
	if (typeof value === 'string') return value === '' ? 'the empty string' : 'a string'
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}
