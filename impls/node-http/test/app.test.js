// The contract points this entry writes by hand, checked through a real node:http server.
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer } from 'node:http'
import { connect } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { MAX_BODY_BYTES, decodeUserInput, handle, targetPath } from '../src/app.js'

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

/** Sends `GET target` as written (fetch only sends origin-form); resolves with status and body. */
async function rawGet(target, method = 'GET') {
	const socket = connect(server.address().port, '127.0.0.1')
	socket.end(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
	let answer = ''
	for await (const data of socket) answer += data
	const [head, body] = answer.split('\r\n\r\n')
	return { status: Number(head.split(' ')[1]), type: /\r\ncontent-type: ([^\r]*)/i.exec(head)?.[1], body }
}

describe('absolute-form targets (RFC 9112 §3.2.2)', () => {
	for (const [target, expected] of [
		['http://127.0.0.1/json', { message: 'Hello, World!' }],
		['http://127.0.0.1/user/42', { id: '42', name: 'User 42' }],
		['http://127.0.0.1:8080/user/100%2541%F0%9F%98%80+1?x=1', { id: '100%41😀+1', name: 'User 100%41😀+1' }],
		['HTTP://localhost/json?x=1', { message: 'Hello, World!' }]
	])
		test(`route ${target} as its path`, async () => {
			const { status, body } = await rawGet(target)
			assert.equal(status, 200)
			assert.deepEqual(JSON.parse(body), expected)
		})

	test('serve /plaintext', async () => {
		assert.deepEqual(await rawGet('http://127.0.0.1/plaintext'), {
			status: 200,
			type: 'text/plain; charset=utf-8',
			body: 'Hello, World!'
		})
	})

	for (const [target, status, method] of [
		['http://127.0.0.1/nope', 404],
		['http://127.0.0.1/user/a/b', 404],
		['http://127.0.0.1', 404],
		['http://127.0.0.1/user/%zz', 400],
		['http://127.0.0.1/user/42', 405, 'PUT'],
		['http://127.0.0.1/validate', 405]
	])
		test(`answer ${status} JSON to ${method ?? 'GET'} ${target}`, async () => {
			const answer = await rawGet(target, method)
			assert.equal(answer.status, status)
			assert.equal(answer.type, 'application/json')
			assert.equal(typeof JSON.parse(answer.body).error, 'string')
		})
})

describe('targetPath', () => {
	test('cuts an origin-form target at the query, nothing else', () => {
		for (const [target, path] of [
			['/json', '/json'],
			['/user/42?x=1', '/user/42'],
			['/user/a%2Fb?x', '/user/a%2Fb'],
			['/user/..', '/user/..'],
			['//json', '//json'],
			['/', '/']
		])
			assert.equal(targetPath(target), path, target)
	})

	test('reads the path of an http or https absolute-form target', () => {
		for (const [target, path] of [
			['http://127.0.0.1/json', '/json'],
			['https://example.com:8443/user/caf%C3%A9?x=1#f', '/user/caf%C3%A9'],
			['HTTP://127.0.0.1', '/'],
			['http://127.0.0.1?x=1', '/']
		])
			assert.equal(targetPath(target), path, target)
	})

	test('keeps any other target whole, so it matches no route', () => {
		for (const target of ['*', 'ftp://127.0.0.1/json', 'http://[::1/json', 'json'])
			assert.equal(targetPath(target), target)
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
