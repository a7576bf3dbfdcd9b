// The contract points this entry writes by hand, checked through a real Bun.serve server.
import { afterAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { MAX_BODY_BYTES, decodeUserInput, maxRequestBodySize, fetch as notFound, onError, routes } from './app'

const server = Bun.serve({
	hostname: '127.0.0.1',
	port: 0,
	development: false,
	maxRequestBodySize,
	routes,
	fetch: notFound,
	error: onError
})
const base = `http://127.0.0.1:${server.port}`
afterAll(() => server.stop(true))

const JSON_TYPE = { 'content-type': 'application/json' }
const post = (body: BodyInit, headers: Record<string, string> = JSON_TYPE) =>
	fetch(`${base}/validate`, { method: 'POST', headers, body })

async function expectError(response: Response, status: number) {
	expect(response.status).toBe(status)
	expect(response.headers.get('content-type')).toStartWith('application/json')
	expect(typeof (await response.json()).error).toBe('string')
}

// A valid person padded with an unknown key to exactly `size` bytes.
const personOfSize = (size: number) => {
	const head = '{"name":"a","age":1,"pad":"'
	return head + 'x'.repeat(size - head.length - 2) + '"}'
}

describe('routes', () => {
	test('serve the four endpoints', async () => {
		const plain = await fetch(`${base}/plaintext`)
		expect(plain.headers.get('content-type')).toBe('text/plain;charset=utf-8')
		expect(await plain.text()).toBe('Hello, World!')
		expect(await (await fetch(`${base}/json`)).json()).toEqual({ message: 'Hello, World!' })
		const user = await fetch(`${base}/user/caf%C3%A9+100%2541?x=1`)
		expect(await user.json()).toEqual({ id: 'café+100%41', name: 'User café+100%41' })
	})

	// Bun's router would answer these 200 with U+FFFD in place of the escape (SPEC 3.8, 3.9).
	test.each(['%zz', '%', 'abc%4', '50%off', '%FF', 'caf%C3', '%ED%A0%80'])(
		'answer 400 JSON to the malformed or non-UTF-8 id %s',
		async (segment) => expectError(await fetch(`${base}/user/${segment}`), 400)
	)

	test('decode ids with escapes exactly once, as UTF-8', async () => {
		const user = await fetch(`${base}/user/100%2541%20%F0%9F%98%80+1`)
		expect(await user.json()).toEqual({ id: '100%41 😀+1', name: 'User 100%41 😀+1' })
	})

	test.each(['/nope', '/plaintext/extra', '/PLAINTEXT', '/user/', '/user/a/b'])(
		'answer 404 JSON to %s',
		async (path) => expectError(await fetch(base + path), 404)
	)

	test('answer 405 with Allow to another method on a known path', async () => {
		const response = await fetch(`${base}/user/42`, { method: 'PUT' })
		expect(response.headers.get('allow')).toBe('GET, HEAD')
		await expectError(response, 405)
		const wrong = await fetch(`${base}/validate`)
		expect(wrong.headers.get('allow')).toBe('POST')
		await expectError(wrong, 405)
	})
})

describe('POST /validate', () => {
	test('echoes exactly name, age and valid', async () => {
		const response = await post('{"name":" a ","age":30.0,"extra":[1,{}]}')
		expect(response.status).toBe(200)
		expect(await response.text()).toBe('{"name":" a ","age":30,"valid":true}')
	})

	test.each([undefined, 'text/plain', 'application/jsonx', 'application/problem+json'])(
		'answers 415 to %p, whatever the body',
		async (type) => expectError(await post('{', type ? { 'content-type': type } : {}), 415)
	)

	test('accepts parameters and any case in the media type', async () => {
		const response = await post('{"name":"a","age":1}', { 'content-type': 'Application/JSON; charset=utf-8' })
		expect(response.status).toBe(200)
	})

	test('accepts exactly 1 MiB and refuses one byte more, declared or chunked', async () => {
		expect((await post(personOfSize(MAX_BODY_BYTES))).status).toBe(200)
		await expectError(await post(personOfSize(MAX_BODY_BYTES + 1)), 413)
		// A stream has no length, so fetch sends it chunked.
		await expectError(await post(new Blob([personOfSize(MAX_BODY_BYTES + 1)]).stream()), 413)
		expect((await fetch(`${base}/plaintext`)).status).toBe(200)
	})
})

/** Sends `head` and a few body bytes, never the rest; resolves with the answer, once it is whole. */
function exchange(head: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const socket = connect(server.port!, '127.0.0.1', () => socket.write(`${head}\r\n\r\n{"name":`))
		let answer = ''
		const done = () => {
			socket.destroy()
			resolve(answer)
		}
		socket.setEncoding('latin1')
		socket.on('data', (data: string) => {
			answer += data
			const end = answer.indexOf('\r\n\r\n')
			const length = /\r\ncontent-length: *(\d+)/i.exec(answer)
			if (end >= 0 && answer.length >= end + 4 + Number(length?.[1] ?? 0)) done()
		})
		socket.on('end', done)
		socket.on('error', reject)
	})
}

describe('a declared Content-Length over 1 MiB', () => {
	// Bun's default maxRequestBodySize (128 MiB) answered from 128 MiB + 1 with a bare 413 and no body.
	test.each([MAX_BODY_BYTES + 1, 128 * 1024 * 1024, 128 * 1024 * 1024 + 1, 2 ** 30, 2 ** 40, '9007199254740993', '576460752303423487'])(
		'%p answers the JSON 413 before the body is sent',
		async (length) => {
			const answer = await exchange(
				`POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}`
			)
			expect(answer).toStartWith('HTTP/1.1 413 ')
			expect(answer).toMatch(/\r\ncontent-type: application\/json/i)
			expect(typeof JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error).toBe('string')
		}
	)

	// Bun's parser (uWebSockets) refuses a Content-Length above 2^59 - 1 (its STATE_SIZE_MASK) with a bare
	// 400 and a closed connection before any handler runs: outside what the entry can answer.
	test.each(['576460752303423488', '9223372036854775807', '18446744073709551617'])(
		"%s is Bun's own bare 400",
		async (length) => {
			const answer = await exchange(
				`POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}`
			)
			expect(answer).toStartWith('HTTP/1.1 400 ')
		}
	)
})

describe('decodeUserInput', () => {
	test.each([
		['{"name":"a","age":0}', 'a', 0],
		['{"name":"a","age":150}', 'a', 150],
		['{"name":"a","age":3e1}', 'a', 30],
		['{"name":"a","age":1.5e2}', 'a', 150],
		['{"name":"😀","age":1}', '😀', 1],
		['{"Name":"x","name":"y","age":1}', 'y', 1],
		['{"name":"a","age":1,"name":"b","age":2}', 'b', 2],
		['{"name":"a","age":1500e-1,"x":1e-400}', 'a', 150],
		['{"name":"a","age":0.0e5}', 'a', 0],
		['{"name":"\\ud800","age":1}', '\ud800', 1]
	])('accepts %s', (body, name, age) => {
		expect(decodeUserInput(Buffer.from(body))).toEqual({ name, age })
	})

	const nested = (levels: number) => `{"name":"a","age":1,"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`

	test('allows 1,000 levels of nesting', () => {
		expect(decodeUserInput(Buffer.from(nested(1000)))).toEqual({ name: 'a', age: 1 })
	})

	test.each([
		['', 'request body is not valid JSON'],
		['{"name":"a","age":1} x', 'request body is not valid JSON'],
		['{"name":"a","age":NaN}', 'request body is not valid JSON'],
		['{"name":"a\u0001","age":1}', 'request body is not valid JSON'],
		['[]', 'request body must be a JSON object, got an array'],
		['null', 'request body must be a JSON object, got null'],
		[nested(1001), 'request body is nested deeper than 1000 levels'],
		['{"NAME":"a","AGE":1}', 'name is required'],
		['{"name":"","age":1}', 'name must be a non-empty string, got the empty string'],
		['{"name":null,"age":1}', 'name must be a non-empty string, got null'],
		['{"name":"a"}', 'age is required'],
		['{"name":"a","age":"30"}', 'age must be an integer from 0 to 150, got a string'],
		['{"name":"a","age":true}', 'age must be an integer from 0 to 150, got a boolean'],
		['{"name":"a","age":30.5}', 'age must be an integer from 0 to 150, got 30.5'],
		['{"name":"a","age":30.000000000000001}', 'age must be an integer from 0 to 150'],
		['{"name":"a","age":150.0000000000000000001}', 'age must be an integer from 0 to 150'],
		['{"name":"a","age":1e-400}', 'age must be an integer from 0 to 150'],
		['{"name":"a","age":-1e-400}', 'age must be an integer from 0 to 150'],
		['{"name":"a","age":151.0}', 'age must be an integer from 0 to 150, got 151'],
		['{"name":"a","age":1e400}', 'age must be an integer from 0 to 150, got Infinity']
	])('refuses %s', (body, message) => {
		const result = decodeUserInput(Buffer.from(body))
		expect('error' in result && result.error).toStartWith(message)
	})

	test('refuses invalid UTF-8', () => {
		expect(decodeUserInput(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]))).toEqual({
			error: 'request body is not valid UTF-8'
		})
	})
})
