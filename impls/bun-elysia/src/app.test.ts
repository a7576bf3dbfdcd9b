// The contract points where this entry departs from Elysia's defaults; the conformance suite
// checks the rest against a running server.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { app } from './app'

const MiB = 1024 * 1024

const JSON_TYPE = { 'content-type': 'application/json' }

const post = (body: BodyInit, headers: Record<string, string> = JSON_TYPE) =>
	app.handle(new Request('http://localhost/validate', { method: 'POST', headers, body }))

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

describe('POST /validate', () => {
	test('echoes a valid person with exactly name, age and valid', async () => {
		const response = await post('{"name":" a ","age":30.0,"extra":[1,{}]}')
		expect(response.status).toBe(200)
		expect(await response.text()).toBe('{"name":" a ","age":30,"valid":true}')
	})

	test('refuses a fraction too fine for a double, and keeps integral floats', async () => {
		for (const age of ['30.000000000000001', '150.0000000000000000001', '1e-400', '-1e-400'])
			await expectError(await post(`{"name":"a","age":${age}}`), 400)
		const response = await post('{"name":"a","age":1500e-1,"x":1e-400}')
		expect(await response.text()).toBe('{"name":"a","age":150,"valid":true}')
	})

	test('refuses a numeric string age instead of coercing it', async () => {
		await expectError(await post('{"name":"a","age":"30"}'), 400)
	})

	test.each(['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx'])(
		'answers 415 to %s',
		async (type) => {
			await expectError(await post('name=a&age=30', { 'content-type': type }), 415)
		}
	)

	test('answers 415 without a content type, even with an empty body', async () => {
		await expectError(await post('', {}), 415)
	})

	test('accepts parameters and any case in the media type', async () => {
		const response = await post('{"name":"a","age":1}', {
			'content-type': 'Application/JSON; charset=utf-8'
		})
		expect(response.status).toBe(200)
	})

	test('answers 400 to invalid UTF-8', async () => {
		const bytes = new Uint8Array([...Buffer.from('{"name":"a'), 0xff, ...Buffer.from('","age":1}')])
		await expectError(await post(bytes), 400)
	})

	test('accepts exactly 1 MiB and refuses one byte more, declared or streamed', async () => {
		expect((await post(personOfSize(MiB))).status).toBe(200)
		await expectError(
			await post(personOfSize(MiB + 1), { ...JSON_TYPE, 'content-length': String(MiB + 1) }),
			413
		)
		const streamed = new Blob([personOfSize(MiB + 1)]).stream()
		await expectError(await post(streamed), 413)
	})

	test('allows 1,000 levels of nesting and refuses 1,001', async () => {
		const nested = (levels: number) =>
			`{"name":"a","age":1,"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`
		expect((await post(nested(1000))).status).toBe(200)
		await expectError(await post(nested(1001)), 400)
	})
})

describe('routing', () => {
	test('answers 405 with Allow to another method on a known path', async () => {
		const response = await app.handle(new Request('http://localhost/user/42', { method: 'PUT' }))
		await expectError(response, 405)
		expect(response.headers.get('allow')).toBe('GET')
	})

	// Elysia decodes the parameter leniently (U+FFFD in place of a malformed escape, SPEC 3.8, 3.9).
	test.each(['%zz', '%', 'abc%4', '50%off', '%FF', 'caf%C3', '%ED%A0%80'])(
		'answers 400 JSON to the malformed or non-UTF-8 id %s',
		async (segment) => expectError(await app.handle(new Request(`http://localhost/user/${segment}`)), 400)
	)

	test('decodes ids with escapes exactly once, as UTF-8', async () => {
		const response = await app.handle(new Request('http://localhost/user/100%2541%20%F0%9F%98%80+1?x=1'))
		expect(await response.json()).toEqual({ id: '100%41 😀+1', name: 'User 100%41 😀+1' })
	})

	test('answers 404 JSON to an unknown path', async () => {
		await expectError(await app.handle(new Request('http://localhost/user/a/b')), 404)
	})
})

describe('a declared Content-Length over 1 MiB, on a real Bun.serve', () => {
	// app.listen passes the app's serve options (maxRequestBodySize) to Bun.serve, as server.ts does.
	beforeAll(() => {
		app.listen({ hostname: '127.0.0.1', port: 0, development: false })
	})
	afterAll(() => app.stop(true))

	/** Sends the head and a few body bytes, never the rest; resolves with the whole answer. */
	const exchange = (length: string | number) =>
		new Promise<string>((resolve, reject) => {
			const head = `POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}`
			const socket = connect(app.server!.port!, '127.0.0.1', () => socket.write(`${head}\r\n\r\n{"name":`))
			let answer = ''
			const done = () => {
				socket.destroy()
				resolve(answer)
			}
			socket.setEncoding('latin1')
			socket.on('data', (data: string) => {
				answer += data
				const end = answer.indexOf('\r\n\r\n')
				const declared = /\r\ncontent-length: *(\d+)/i.exec(answer)
				if (end >= 0 && answer.length >= end + 4 + Number(declared?.[1] ?? 0)) done()
			})
			socket.on('end', done)
			socket.on('error', reject)
		})

	// Bun's default maxRequestBodySize (128 MiB) answered from 128 MiB + 1 with a bare 413 and no body.
	test.each([MiB + 1, 128 * MiB, 128 * MiB + 1, 2 ** 30, 2 ** 40, '9007199254740993', '576460752303423487'])(
		'%p answers the JSON 413 before the body is sent',
		async (length) => {
			const answer = await exchange(length)
			expect(answer).toStartWith('HTTP/1.1 413 ')
			expect(answer).toMatch(/\r\ncontent-type: application\/json/i)
			expect(typeof JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error).toBe('string')
		}
	)

	// Bun's parser (uWebSockets) refuses a Content-Length above 2^59 - 1 (its STATE_SIZE_MASK) with a
	// bare 400 and a closed connection before any handler runs: outside what the entry can answer.
	test.each(['576460752303423488', '9223372036854775807', '18446744073709551617'])(
		"%s is Bun's own bare 400",
		async (length) => expect(await exchange(length)).toStartWith('HTTP/1.1 400 ')
	)
})
