'use strict'

const { isUtf8 } = require('node:buffer')
const express = require('express')
const createError = require('http-errors')
const typeis = require('type-is')

/** The contract's body limit: 1 MiB, in bytes (body-parser reads '1mb' as 1,048,576). */
const BODY_LIMIT = '1mb'

/** Deeper JSON is refused before JSON.parse sees it; Jackson's default limit. */
const MAX_DEPTH = 1000

const MIN_AGE = 0
const MAX_AGE = 150

/**
 * The Express application. It neither listens nor reads the environment: src/server.js does
 * that, and the tests start it on an ephemeral port.
 */
function createApp () {
  const app = express()
  app.disable('x-powered-by')
  // RFC 3986 paths are case-sensitive: /PLAINTEXT is not /plaintext (Express matches either by default).
  app.enable('case sensitive routing')

  app.route('/plaintext')
    .get((req, res) => {
      res.type('text/plain').send('Hello, World!')
    })
    .all(methodNotAllowed('GET, HEAD'))

  app.route('/json')
    .get((req, res) => {
      res.json({ message: 'Hello, World!' })
    })
    .all(methodNotAllowed('GET, HEAD'))

  // The router percent-decodes :id once (decodeURIComponent); a bad escape is its 400 error.
  app.route('/user/:id')
    .get((req, res) => {
      const { id } = req.params
      res.json({ id, name: `User ${id}` })
    })
    .all(methodNotAllowed('GET, HEAD'))

  app.route('/validate')
    .post(requireJsonMediaType, jsonBody, (req, res) => {
      const { name, age } = validatePerson(req.body)
      res.json({ name, age, valid: true })
    })
    .all(methodNotAllowed('POST'))

  app.use((req, res, next) => {
    next(createError(404, `no route for ${req.method} ${req.path}`))
  })

  app.use(errorHandler)
  return app
}

/** 415 unless the request says application/json (parameters allowed, case-insensitive). */
function requireJsonMediaType (req, res, next) {
  // type-is on the header itself: req.is() answers null for a request without a body, which
  // would make an empty body a 415 instead of the contract's 400.
  const contentType = req.get('Content-Type')
  if (contentType !== undefined && typeis.is(contentType, ['application/json'])) {
    next()
  } else {
    next(createError(415, 'Content-Type must be application/json'))
  }
}

const jsonBody = express.json({
  limit: BODY_LIMIT,
  verify: verifyJsonBytes
})

/**
 * body-parser's verify hook sees the raw bytes before they are decoded and parsed. It refuses
 * what body-parser would otherwise let through: bytes that are not UTF-8 (the decoder would put
 * U+FFFD in their place), a charset other than UTF-8, and nesting JSON.parse would parse
 * however deep it is.
 */
function verifyJsonBytes (req, res, buf, encoding) {
  if (encoding !== 'utf-8') {
    throw createError(415, `unsupported charset "${encoding}": JSON is UTF-8`, { type: 'charset.unsupported' })
  }
  if (!isUtf8(buf)) {
    throw createError(400, 'request body is not valid UTF-8', { type: 'entity.verify.failed' })
  }
  if (nestingExceeds(buf, MAX_DEPTH)) {
    throw createError(400, `JSON nested deeper than ${MAX_DEPTH} levels`, { type: 'entity.verify.failed' })
  }
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d

/** Whether the JSON text in buf opens more than max arrays or objects at once (strings skipped). */
function nestingExceeds (buf, max) {
  let depth = 0
  let inString = false
  for (let i = 0; i < buf.length; i++) {
    const byte = buf[i]
    if (inString) {
      if (byte === BACKSLASH) i++
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) {
      inString = true
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++depth > max) return true
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth--
    }
  }
  return false
}

/** The contract's person: a non-empty string name and an integer age from 0 to 150. */
function validatePerson (body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw createError(400, 'the body must be a JSON object')
  }
  const { name, age } = body
  if (typeof name !== 'string' || name.length === 0) {
    throw createError(400, 'name must be a non-empty string')
  }
  // JSON.parse gives 30.0 and 3e1 as the number 30, and 1e400 as Infinity, which is no integer.
  if (typeof age !== 'number' || !Number.isInteger(age) || age < MIN_AGE || age > MAX_AGE) {
    throw createError(400, `age must be an integer from ${MIN_AGE} to ${MAX_AGE}`)
  }
  return { name, age }
}

/** A known path with a method it does not serve. */
function methodNotAllowed (allow) {
  return (req, res, next) => {
    res.set('Allow', allow)
    next(createError(405, `${req.method} is not allowed on ${req.path}`))
  }
}

/**
 * Every error answers {"error": message} as JSON. Errors of the client (http-errors with
 * expose, as body-parser and the router make them) keep their message; anything else is a 500
 * with a generic message, logged to stderr, never sent.
 */
// Express tells an error handler from other middleware by its four parameters.
// eslint-disable-next-line no-unused-vars
function errorHandler (err, req, res, next) {
  if (res.headersSent) {
    next(err)
    return
  }
  const status = clientErrorStatus(err)
  if (status === undefined) {
    console.error(err)
    res.status(500).json({ error: 'internal server error' })
    return
  }
  res.status(status).json({ error: err.expose ? err.message : createError(status).message })
}

function clientErrorStatus (err) {
  const status = err.status ?? err.statusCode
  return Number.isInteger(status) && status >= 400 && status < 500 ? status : undefined
}

module.exports = { createApp, nestingExceeds, validatePerson }
