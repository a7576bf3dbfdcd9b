// The contract points where this entry departs from Elysia's defaults; the conformance suite
// checks the rest against a running server.
import { describe, expect, test } from 'bun:test'
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
