import { Type } from '@sinclair/typebox'
import { Elysia, status, t } from 'elysia'

const HELLO = 'Hello, World!'
const MAX_BODY_BYTES = 1024 * 1024
// JSON.parse has no depth limit; the contract wants deep nesting refused (as Jackson does at 1000).
const MAX_JSON_DEPTH = 1000

// Thrown by the body parser; Elysia wraps it in its ParseError, onError unwraps it.
class RequestRejected extends Error {
	constructor(
		readonly status: 400 | 413 | 415,
		message: string
	) {
		super(message)
	}
}

// fatal: invalid UTF-8 must be a 400, not silently replaced by U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * The id of GET /user/:id, or undefined when its percent-encoding is malformed or not UTF-8 (400).
 * Elysia decodes the parameter leniently: a malformed escape becomes U+FFFD (`%zz` → "\uFFFD",
 * `abc%4` → "abc\uFFFD4"), an id the client never sent (SPEC 3.9). So an id from a path holding a `%`
 * is decoded here from the raw path with decodeURIComponent, which throws on a malformed escape and
 * on bytes that are not UTF-8 (SPEC 3.8); any other id is Elysia's, as it was.
 */
function userId(decoded: string, url: string): string | undefined {
	if (!url.includes('%')) return decoded
	const segment = new URL(url).pathname.slice('/user/'.length)
	try {
		return decodeURIComponent(segment)
	} catch {
		return undefined
	}
}

async function readBody(request: Request): Promise<Uint8Array> {
	const declared = request.headers.get('content-length')
	if (declared !== null) {
		if (Number(declared) > MAX_BODY_BYTES) throw tooLarge()
		return request.bytes()
	}
	if (!request.body) return new Uint8Array(0)

	// Chunked: count while reading so an endless body is cut off at the limit.
	const chunks: Uint8Array[] = []
	let size = 0
	for await (const chunk of request.body) {
		size += chunk.byteLength
		if (size > MAX_BODY_BYTES) throw tooLarge()
		chunks.push(chunk)
	}
	return Buffer.concat(chunks)
}

function nestsDeeperThan(value: unknown, limit: number): boolean {
	if (typeof value !== 'object' || value === null) return false
	if (limit === 0) return true
	for (const child of Array.isArray(value) ? value : Object.values(value))
		if (nestsDeeperThan(child, limit - 1)) return true
	return false
}

// JSON.parse reads every number as a double, which rounds a fraction too fine for one
// (30.000000000000001, 150.0000000000000000001, 1e-400) to an integer; the contract calls it a
// fraction (SPEC 7.8). Only a text with a digit before `.`, `e` or `E` can hold such a number; it is
// parsed with a reviver that reads each integral number's source text (JSON.parse source text
// access, which Bun implements) and turns an inexact one into NaN, which the schema refuses.
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

const tooLarge = () =>
	new RequestRejected(413, `request body exceeds ${MAX_BODY_BYTES} bytes`)

const methodNotAllowed =
	(allow: string) =>
	({ set }: { set: { headers: Record<string, string | number> } }) => {
		set.headers.allow = allow
		return status(405, { error: `method not allowed, use ${allow}` })
	}

export const app = new Elysia({
	serve: {
		// Bun.serve's own limit (128 MiB by default) answers a larger declared Content-Length with a
		// bare 413, no headers, no body, before Elysia runs (SPEC 9.1). Lifted (Bun reads Infinity as
		// the largest 64-bit integer), so strictJson decides every length: a declared one over 1 MiB
		// is refused before a byte is read, a chunked body is cut off at 1 MiB + 1.
		maxRequestBodySize: Number.POSITIVE_INFINITY
	}
})
	.parser('strictJson', async ({ request }) => {
		// Read the header itself: Elysia passes an empty content type when the body is empty.
		const mediaType = request.headers.get('content-type')?.split(';', 1)[0]
		if (mediaType?.trim().toLowerCase() !== 'application/json')
			throw new RequestRejected(415, 'Content-Type must be application/json')

		const text = utf8.decode(await readBody(request))
		const body: unknown = FRACTION_OR_EXPONENT.test(text) ? JSON.parse(text, exactNumbers) : JSON.parse(text)
		if (nestsDeeperThan(body, MAX_JSON_DEPTH))
			throw new RequestRejected(400, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`)
		return body
	})
	.onError(({ code, error }) => {
		switch (code) {
			case 'PARSE':
				if (error.cause instanceof RequestRejected)
					return status(error.cause.status, { error: error.cause.message })
				return status(400, { error: 'request body is not valid UTF-8 JSON' })

			case 'VALIDATION': {
				const detail = error.valueError
				return status(400, {
					error: detail
						? `${detail.path || 'body'}: ${detail.message}`
						: 'request body is invalid'
				})
			}

			case 'NOT_FOUND':
				return status(404, { error: 'not found' })

			default:
				console.error(error)
				return status(500, { error: 'internal server error' })
		}
	})
	.get('/plaintext', () => HELLO)
	.get('/json', () => ({ message: HELLO }))
	.get('/user/:id', ({ params, request }) => {
		const id = userId(params.id, request.url)
		if (id === undefined) return status(400, { error: 'the user id is not valid percent-encoded UTF-8' })
		return { id, name: `User ${id}` }
	})
	.post(
		'/validate',
		({ body: { name, age } }) => ({ name, age, valid: true }),
		{
			parse: 'strictJson',
			body: t.Object({
				name: t.String({ minLength: 1 }),
				// TypeBox's own Integer: Elysia's t.Integer also accepts numeric strings ("30").
				age: Type.Integer({ minimum: 0, maximum: 150 })
			})
		}
	)

// Elysia answers an unregistered method on a known path with NOT_FOUND; the contract wants 405.
const allowed = [
	['/plaintext', 'GET'],
	['/json', 'GET'],
	['/user/:id', 'GET'],
	['/validate', 'POST']
] as const
for (const [path, allow] of allowed)
	for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'])
		if (method !== allow) app.route(method, path, methodNotAllowed(allow))
