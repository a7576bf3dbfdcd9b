'use strict'

// The app on an ephemeral 127.0.0.1 port, through real HTTP: node --test test/

const assert = require('node:assert/strict')
const { after, before, describe, it } = require('node:test')
const { createApp, nestingExceeds, validatePerson } = require('../src/app')

const MIB = 1024 * 1024

let server
let base

before(async () => {
  server = createApp().listen(0, '127.0.0.1')
  await new Promise((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', reject)
  })
  base = `http://127.0.0.1:${server.address().port}`
})

after(() => {
  server.closeAllConnections()
  server.close()
})

/** contentType null sends none: the body goes as bytes, to which fetch adds no Content-Type. */
function postValidate (body, contentType = 'application/json') {
  if (contentType === null) return fetch(`${base}/validate`, { method: 'POST', body: Buffer.from(body) })
  const headers = { 'Content-Type': contentType }
  return fetch(`${base}/validate`, { method: 'POST', headers, body })
}

async function expectError (response, status) {
  assert.equal(response.status, status)
  assert.match(response.headers.get('content-type'), /^application\/json/)
  const body = await response.json()
  assert.equal(typeof body.error, 'string')
  assert.doesNotMatch(body.error, /\n\s+at /, 'no stack trace')
  return body
}

describe('GET routes', () => {
  it('/plaintext answers the 13 bytes as text/plain', async () => {
    const response = await fetch(`${base}/plaintext`)
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8')
    assert.equal(await response.text(), 'Hello, World!')
    assert.equal(response.headers.get('x-powered-by'), null)
  })

  it('/json answers the message object', async () => {
    const response = await fetch(`${base}/json`)
    assert.equal(response.status, 200)
    assert.deepEqual(await response.json(), { message: 'Hello, World!' })
  })

  it('/user/{id} percent-decodes the id once and keeps + literal', async () => {
    for (const [path, id] of [['42', '42'], ['caf%C3%A9', 'café'], ['100%2541', '100%41'], ['a+b%20c', 'a+b c']]) {
      const response = await fetch(`${base}/user/${path}`)
      assert.equal(response.status, 200, path)
      assert.deepEqual(await response.json(), { id, name: `User ${id}` })
    }
  })

  it('/user/ and /user/a/b are 404', async () => {
    await expectError(await fetch(`${base}/user/`), 404)
    await expectError(await fetch(`${base}/user/a/b`), 404)
  })

  it('an invalid percent-escape in the id is a JSON 400', async () => {
    await expectError(await fetch(`${base}/user/%zz`), 400)
  })

  it('routes are case-sensitive', async () => {
    await expectError(await fetch(`${base}/PLAINTEXT`), 404)
  })

  it('a known path with another method is 405 with Allow', async () => {
    const response = await fetch(`${base}/json`, { method: 'DELETE' })
    await expectError(response, 405)
    assert.equal(response.headers.get('allow'), 'GET, HEAD')
    const get = await fetch(`${base}/validate`)
    await expectError(get, 405)
    assert.equal(get.headers.get('allow'), 'POST')
  })
})

describe('POST /validate', () => {
  it('echoes a valid person, age 30.0 as the integer 30', async () => {
    const response = await postValidate('{"name":" ","age":30.0,"NAME":"x","extra":[1,{}]}', 'Application/JSON; charset=UTF-8')
    assert.equal(response.status, 200)
    assert.equal(await response.text(), '{"name":" ","age":30,"valid":true}')
  })

  it('other media types and none are 415, whatever the body', async () => {
    for (const type of ['text/plain', 'text/json', 'application/jsonx', 'application/problem+json']) {
      await expectError(await postValidate('{', type), 415)
    }
    await expectError(await postValidate('{"name":"a","age":1}', null), 415)
  })

  it('a charset other than UTF-8 is 415', async () => {
    await expectError(await postValidate('{"name":"a","age":1}', 'application/json; charset=utf-16'), 415)
  })

  it('a body over 1 MiB is 413; exactly 1 MiB is accepted', async () => {
    const prefix = '{"name":"a","age":1,"pad":"'
    const bodyOf = (size) => prefix + 'x'.repeat(size - prefix.length - 2) + '"}'
    await expectError(await postValidate(bodyOf(MIB + 1)), 413)
    const exact = await postValidate(bodyOf(MIB))
    assert.equal(exact.status, 200)
  })

  it('malformed JSON, non-objects, an empty body and invalid UTF-8 are 400', async () => {
    for (const body of ['{', '{"name":"a","age":1} x', '{"name":"a","age":NaN}', '[]', 'null', '42', '']) {
      await expectError(await postValidate(body), 400)
    }
    const invalidUtf8 = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xff]), Buffer.from('","age":1}')])
    await expectError(await postValidate(invalidUtf8), 400)
  })

  it('deep nesting under an unknown key is 400', async () => {
    const depth = 100000
    await expectError(await postValidate(`{"name":"a","age":1,"x":${'['.repeat(depth)}${']'.repeat(depth)}}`), 400)
  })

  it('keys are case-sensitive: NAME and AGE are not name and age', async () => {
    await expectError(await postValidate('{"NAME":"a","AGE":1}'), 400)
  })
})

describe('validatePerson', () => {
  it('accepts the bounds 0 and 150 and a one-character name', () => {
    assert.deepEqual(validatePerson({ name: 'a', age: 0 }), { name: 'a', age: 0 })
    assert.deepEqual(validatePerson({ name: '😀', age: 150 }), { name: '😀', age: 150 })
  })

  it('refuses what the contract calls invalid, with a 400', () => {
    const invalid = [
      { age: 1 }, { name: '', age: 1 }, { name: 1, age: 1 }, { name: 'a' }, { name: 'a', age: -1 },
      { name: 'a', age: 151 }, { name: 'a', age: '30' }, { name: 'a', age: true }, { name: 'a', age: null },
      { name: 'a', age: [30] }, { name: 'a', age: 30.5 }, { name: 'a', age: Infinity }, { name: 'a', age: 1e20 },
    ]
    for (const body of invalid) {
      assert.throws(() => validatePerson(body), { status: 400 }, JSON.stringify(body))
    }
  })
})

describe('nestingExceeds', () => {
  it('counts arrays and objects but not brackets inside strings', () => {
    assert.equal(nestingExceeds(Buffer.from('[[[]]]'), 3), false)
    assert.equal(nestingExceeds(Buffer.from('[[[[]]]]'), 3), true)
    assert.equal(nestingExceeds(Buffer.from('{"a":{"b":{"c":{}}}}'), 3), true)
    assert.equal(nestingExceeds(Buffer.from('["[[[[", "\\"[[[["]'), 1), false)
  })
})
