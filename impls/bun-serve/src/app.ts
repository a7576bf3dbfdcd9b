// The fairbench contract (docs/SPEC.md) on Bun.serve alone: its routes, Request and Response.
import type { BunRequest } from 'bun'

const HELLO = 'Hello, World!'
// Over 1 MiB is 413, exactly 1 MiB is accepted (SPEC 4.6, 4.7).
export const MAX_BODY_BYTES = 1024 * 1024
// Bun.serve's own limit (maxRequestBodySize, 128 MiB by default) answers a larger declared
// Content-Length with a bare 413, no headers, no body, before any handler runs (SPEC 9.1). Lifted
// (Bun reads Infinity as the largest 64-bit integer), so readBody decides every length: it answers
// a declared length over 1 MiB before reading a byte and cuts a chunked body off at 1 MiB + 1.
export const maxRequestBodySize = Number.POSITIVE_INFINITY
// JSON.parse has no depth limit; deeper bodies are refused (SPEC 5.6), Jackson's default limit.
export const MAX_JSON_DEPTH = 1000

type Handler = (req: BunRequest) => Response | Promise<Response>

const error = (status: number, message: string, headers?: HeadersInit) =>
	Response.json({ error: message }, { status, headers })

// Bun's router passes a method a route does not list to `fetch` (404). The contract wants 405
// for a known path, so every other common method of the route answers it.
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const
type Method = (typeof METHODS)[number]

function methods(handlers: Partial<Record<Method, Handler>>) {
	// A GET handler also serves HEAD (Bun sends no body for HEAD).
	const served = { HEAD: handlers.GET, ...handlers }
	const allow = METHODS.filter((method) => served[method]).join(', ')
	const notAllowed: Handler = (req) =>
		error(405, `method ${req.method} not allowed, use ${allow}`, { Allow: allow })
	const route: Partial<Record<Method, Handler>> = {}
	for (const method of METHODS) route[method] = served[method] ?? notAllowed
	return route
}

export const routes = {
	'/plaintext': methods({ GET: () => new Response(HELLO) }),
	'/json': methods({ GET: () => Response.json({ message: HELLO }) }),
	// Bun decodes the parameter once, as UTF-8 ('+' stays a plus). It matches one non-empty segment,
	// so /user/ and /user/a/b reach `fetch` (404).
	'/user/:id': methods({
		GET: (req) => {
			const id = userId(req as BunRequest<'/user/:id'>)
			if (id === undefined) return error(400, 'the user id is not valid percent-encoded UTF-8')
			return Response.json({ id, name: `User ${id}` })
		}
	}),
	'/validate': methods({ POST: validate })
}

/**
 * The id of GET /user/:id, or undefined when its percent-encoding is malformed or not UTF-8 (400).
 * Bun's router decodes leniently: a malformed escape becomes U+FFFD (`%zz` → "\uFFFD", `abc%4` →
 * "abc\uFFFD4"), an id the client never sent (SPEC 3.9). So an id holding a `%` is decoded here from
 * the raw path with decodeURIComponent, which throws on a malformed escape and on bytes that are
 * not UTF-8 (SPEC 3.8); any other id is the router's, as it was.
 */
export function userId(req: BunRequest<'/user/:id'>): string | undefined {
	if (!req.url.includes('%')) return req.params.id
	const segment = new URL(req.url).pathname.slice('/user/'.length)
	try {
		return decodeURIComponent(segment)
	} catch {
		return undefined
	}
}

/** Every request no route matched. */
export function fetch(req: Request) {
	return error(404, `no route for ${req.method} ${new URL(req.url).pathname}`)
}

/** A handler that threw: never a stack trace in the response (SPEC 9.2). */
export function onError(cause: Error) {
	console.error(cause)
	return error(500, 'internal server error')
}

class TooLarge extends Error {}

async function validate(req: Request) {
	// The media type comes first (SPEC 4): 415 whatever the body holds.
	const mediaType = req.headers.get('content-type')?.split(';', 1)[0].trim().toLowerCase()
	if (mediaType !== 'application/json') return error(415, 'Content-Type must be application/json')

	let bytes: Uint8Array
	try {
		bytes = await readBody(req)
	} catch (cause) {
		if (cause instanceof TooLarge)
			return error(413, `request body is larger than 1 MiB (${MAX_BODY_BYTES} bytes)`)
		return error(400, 'request body could not be read')
	}
	const result = decodeUserInput(bytes)
	if ('error' in result) return error(400, result.error)
	return Response.json({ name: result.name, age: result.age, valid: true })
}

// Bun's own maxRequestBodySize answers 413 with an empty body, so the limit is kept here (and
// Bun's lifted, `maxRequestBodySize` above): a declared Content-Length before reading, a chunked
// body while reading. Bun drains the rest.
async function readBody(req: Request): Promise<Uint8Array> {
	const declared = req.headers.get('content-length')
	if (declared !== null) {
		if (Number(declared) > MAX_BODY_BYTES) throw new TooLarge()
		return req.bytes()
	}
	if (!req.body) return new Uint8Array(0)
	const chunks: Uint8Array[] = []
	let size = 0
	for await (const chunk of req.body) {
		size += chunk.byteLength
		if (size > MAX_BODY_BYTES) throw new TooLarge()
		chunks.push(chunk)
	}
	return Buffer.concat(chunks, size)
}

// fatal: invalid UTF-8 must be a 400, not silently replaced by U+FFFD (SPEC 5.7).
const utf8 = new TextDecoder('utf-8', { fatal: true })

type Decoded = { name: string; age: number } | { error: string }

/**
 * The body rules of SPEC 5-8: UTF-8 JSON per RFC 8259 (JSON.parse: no NaN, no trailing data, no
 * raw control characters), an object, a non-empty string `name` and an integer `age` in 0..150.
 * Keys are exact and of duplicates the last one wins, as JSON.parse does.
 */
export function decodeUserInput(bytes: Uint8Array): Decoded {
	let text: string
	try {
		text = utf8.decode(bytes)
	} catch {
		return { error: 'request body is not valid UTF-8' }
	}
	let body: unknown
	try {
		body = FRACTION_OR_EXPONENT.test(text) ? JSON.parse(text, exactNumbers) : JSON.parse(text)
	} catch (cause) {
		return { error: `request body is not valid JSON: ${(cause as Error).message}` }
	}
	if (typeof body !== 'object' || body === null || Array.isArray(body))
		return { error: `request body must be a JSON object, got ${kind(body)}` }
	if (nestsDeeperThan(body, MAX_JSON_DEPTH))
		return { error: `request body is nested deeper than ${MAX_JSON_DEPTH} levels` }

	const { name, age } = body as Record<string, unknown>
	if (name === undefined) return { error: 'name is required' }
	if (typeof name !== 'string' || name.length === 0)
		return { error: `name must be a non-empty string, got ${kind(name)}` }
	if (age === undefined) return { error: 'age is required' }
	// JSON numbers are doubles: 30.0 and 3e1 are the integer 30 (SPEC 7.10); 1e400 is Infinity.
	if (typeof age !== 'number' || !Number.isInteger(age) || age < 0 || age > 150)
		return { error: `age must be an integer from 0 to 150, got ${kind(age)}` }
	return { name, age }
}

// JSON.parse reads every number as a double, which rounds a fraction too fine for one
// (30.000000000000001, 150.0000000000000000001, 1e-400) to an integer; the contract calls it a
// fraction (SPEC 7.8). Only a text with a digit before `.`, `e` or `E` can hold such a number; it is
// parsed with a reviver that reads each integral number's source text (JSON.parse source text
// access, which Bun implements) and turns an inexact one into NaN, which no check accepts.
const FRACTION_OR_EXPONENT = /\d[.eE]/

function exactNumbers(_key: string, value: unknown, context?: { source?: string }): unknown {
	if (typeof value === 'number' && Number.isInteger(value) && context?.source !== undefined)
		return isIntegral(context.source) ? value : Number.NaN
	return value
}

/** Whether a JSON number literal's exact decimal value is an integer (30.0, 1500e-1, -0: yes). */
export function isIntegral(literal: string): boolean {
	const match = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal)
	if (match === null) return false
	const [, whole, fraction = '', exponent = '0'] = match
	const digits = whole + fraction
	const significant = digits.replace(/0+$/, '')
	if (!/[1-9]/.test(significant)) return true // a zero
	return Number(exponent) - fraction.length + (digits.length - significant.length) >= 0
}

function nestsDeeperThan(value: unknown, limit: number): boolean {
	if (typeof value !== 'object' || value === null) return false
	if (limit === 0) return true
	for (const child of Array.isArray(value) ? value : Object.values(value))
		if (nestsDeeperThan(child, limit - 1)) return true
	return false
}

function kind(value: unknown) {
	if (value === null) return 'null'
	if (Array.isArray(value)) return 'an array'
	// NaN is exactNumbers' mark for a fraction a double would round to an integer.
	if (typeof value === 'number') return Number.isNaN(value) ? 'a fraction' : String(value)
	if (typeof value === 'string') return value === '' ? 'the empty string' : 'a string'
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}
