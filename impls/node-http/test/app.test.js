// The contract points this entry writes by hand, checked through a real node:http server.
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer } from 'node:http'
import { after, before, describe, test } from 'node:test'
import { MAX_BODY_BYTES, decodeUserInput, handle } from '../src/app.js'

let server
let base

before(async () => {
	server = createServer(handle).listen(0, '127.0.0.1')
	await once(server, 'listening')
	base = `http://127.0.0.1:${server.address().port}`
})

after(() => server.close())

const post = (body, headers = { 'content-type': 'application/json' }) =>
	fetch(`${base}/validate`, { method: 'POST', headers, body, duplex: 'half' })

async function assertError(response, status) {
	assert.equal(response.status, status)
	assert.equal(response.headers.get('content-type'), 'application/json')
	assert.equal(typeof (await response.json()).error, 'string')
}

// A valid person padded with an unknown key to exactly `size` bytes.
const personOfSize = (size) => {
	const head = '{"name":"a","age":1,"pad":"'
	return head + 'x'.repeat(size - head.length - 2) + '"}'
}

describe('routes', () => {
	test('serve the four endpoints', async () => {
		const plain = await fetch(`${base}/plaintext`)
		assert.equal(plain.headers.get('content-type'), 'text/plain; charset=utf-8')
		assert.equal(await plain.text(), 'Hello, World!')
		assert.deepEqual(await (await fetch(`${base}/json`)).json(), { message: 'Hello, World!' })
		const user = await fetch(`${base}/user/caf%C3%A9+100%2541?x=1`)
		assert.deepEqual(await user.json(), { id: 'café+100%41', name: 'User café+100%41' })
	})

	for (const path of ['/nope', '/plaintext/extra', '/PLAINTEXT', '/user/', '/user/a/b'])
		test(`answer 404 JSON to ${path}`, async () => assertError(await fetch(base + path), 404))

	test('answer 405 with Allow to another method on a known path', async () => {
		const response = await fetch(`${base}/user/42`, { method: 'PUT' })
		assert.equal(response.headers.get('allow'), 'GET, HEAD')
		await assertError(response, 405)
		await assertError(await fetch(`${base}/validate`), 405)
	})

	test('answer 400 JSON to an invalid percent-encoding', async () => {
		await assertError(await fetch(`${base}/user/%FF%C3%28`), 400)
	})
})

describe('POST /validate', () => {
	test('echoes exactly name, age and valid', async () => {
		const response = await post('{"name":" a ","age":30.0,"extra":[1,{}]}')
		assert.equal(response.status, 200)
		assert.equal(await response.text(), '{"name":" a ","age":30,"valid":true}')
	})

	for (const type of [undefined, 'text/plain', 'application/jsonx', 'application/problem+json'])
		test(`answers 415 to ${type ?? 'no content type'}, whatever the body`, async () => {
			await assertError(await post('{', type ? { 'content-type': type } : {}), 415)
		})

	test('accepts parameters and any case in the media type', async () => {
		const response = await post('{"name":"a","age":1}', { 'content-type': 'Application/JSON; charset=utf-8' })
		assert.equal(response.status, 200)
	})

	test('accepts exactly 1 MiB and refuses one byte more, declared or chunked', async () => {
		assert.equal((await post(personOfSize(MAX_BODY_BYTES))).status, 200)
		await assertError(await post(personOfSize(MAX_BODY_BYTES + 1)), 413)
		// A stream has no length, so fetch sends it chunked.
		await assertError(await post(new Blob([personOfSize(MAX_BODY_BYTES + 1)]).stream()), 413)
		assert.equal((await fetch(`${base}/plaintext`)).status, 200)
	})
})

describe('decodeUserInput', () => {
	test('accepts valid people', () => {
		for (const [body, name, age] of [
			['{"name":"a","age":0}', 'a', 0],
			['{"name":"a","age":150}', 'a', 150],
			['{"name":"a","age":3e1}', 'a', 30],
			['{"name":"a","age":1.5e2}', 'a', 150],
			['{"name":"😀","age":1}', '😀', 1],
			['{"Name":"x","name":"y","age":1}', 'y', 1],
			['{"name":"a","age":1,"name":"b","age":2}', 'b', 2],
			['{"name":"\\ud800","age":1}', '\ud800', 1]
		])
			assert.deepEqual(decodeUserInput(Buffer.from(body)), { name, age }, body)
	})

	test('refuses what the contract refuses', () => {
		const nested = (levels) => `{"name":"a","age":1,"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`
		assert.deepEqual(decodeUserInput(Buffer.from(nested(1000))), { name: 'a', age: 1 })
		for (const [body, message] of [
			['', 'request body is not valid JSON'],
			['{"name":"a","age":1} x', 'request body is not valid JSON'],
			['{"name":"a","age":NaN}', 'request body is not valid JSON'],
			['{"name":"a\u0001","age":1}', 'request body is not valid JSON'],
			[Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), 'request body is not valid UTF-8'],
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
			['{"name":"a","age":151.0}', 'age must be an integer from 0 to 150, got 151'],
			['{"name":"a","age":1e400}', 'age must be an integer from 0 to 150, got Infinity']
		]) {
			const { error } = decodeUserInput(Buffer.isBuffer(body) ? body : Buffer.from(body))
			assert.ok(error?.startsWith(message), `${String(body).slice(0, 40)}: got ${error}, want ${message}`)
		}
	})
})
