//! The routes, the accept loop and the HTTP side of /validate.

use std::convert::Infallible;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::Body;
use hyper::header::{HeaderMap, HeaderValue, ALLOW, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use percent_encoding::percent_decode_str;
use serde::Serialize;
use tokio::net::TcpListener;

use crate::user_input;

const HELLO: &str = "Hello, World!";
/// Over 1 MiB is 413, exactly 1 MiB is accepted (SPEC 4.6, 4.7).
pub const MAX_BODY_BYTES: usize = 1 << 20;

type Res = Response<Full<Bytes>>;

#[derive(Serialize)]
struct Message {
    message: &'static str,
}

#[derive(Serialize)]
struct User<'a> {
    id: &'a str,
    name: String,
}

#[derive(Serialize)]
struct ValidUser {
    name: String,
    age: u8,
    valid: bool,
}

#[derive(Serialize)]
struct ApiError<'a> {
    error: &'a str,
}

/// Accepts connections forever, each served by hyper's HTTP/1.1 connection in its own task.
pub async fn serve(listener: TcpListener) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors, for instance: wait a little instead of spinning.
                eprintln!("rust-hyper: accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // As Go's and Node's servers do by default: a response is never held back by Nagle.
        let _ = stream.set_nodelay(true);
        tokio::spawn(async move {
            // An error here (client gone, unparsable request) concerns this connection only.
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service_fn(handle))
                .await;
        });
    }
}

/// Routes a request. Paths are exact and case-sensitive; the query string is not part of them.
pub async fn handle<B>(req: Request<B>) -> Result<Res, Infallible>
where
    B: Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let (parts, body) = req.into_parts();
    let method = &parts.method;
    // hyper answers HEAD without the body.
    let get = method == Method::GET || method == Method::HEAD;
    let path = parts.uri.path();
    let response = match path {
        "/plaintext" if get => text(HELLO),
        "/json" if get => json(StatusCode::OK, &Message { message: HELLO }),
        "/validate" if method == Method::POST => validate(&parts.headers, body).await,
        "/plaintext" | "/json" => method_not_allowed(method, "GET, HEAD"),
        "/validate" => method_not_allowed(method, "POST"),
        _ => match path.strip_prefix("/user/") {
            // Exactly one non-empty segment: /user/ and /user/a/b are 404.
            Some(id) if !id.is_empty() && !id.contains('/') => {
                if get {
                    user(id)
                } else {
                    method_not_allowed(method, "GET, HEAD")
                }
            }
            _ => error(
                StatusCode::NOT_FOUND,
                &format!("no route for {method} {path}"),
            ),
        },
    };
    Ok(response)
}

fn user(raw: &str) -> Res {
    // Decoded once, as UTF-8; '+' stays a plus.
    match percent_decode_str(raw).decode_utf8() {
        Ok(id) => json(
            StatusCode::OK,
            &User {
                name: format!("User {id}"),
                id: &id,
            },
        ),
        Err(_) => error(
            StatusCode::BAD_REQUEST,
            "the user id is not valid percent-encoded UTF-8",
        ),
    }
}

async fn validate<B>(headers: &HeaderMap, body: B) -> Res
where
    B: Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    // The media type comes first (SPEC 4): 415 whatever the body holds.
    let media_type = headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok());
    let is_json = media_type
        .and_then(|value| value.split(';').next())
        .is_some_and(|value| value.trim().eq_ignore_ascii_case("application/json"));
    if !is_json {
        return error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Content-Type must be application/json",
        );
    }
    let too_large = || {
        error(
            StatusCode::PAYLOAD_TOO_LARGE,
            "request body is larger than 1 MiB (1048576 bytes)",
        )
    };
    // A Content-Length is the body's exact size hint: over the limit, nothing is read.
    if body.size_hint().lower() > MAX_BODY_BYTES as u64 {
        return too_large();
    }
    // Limited counts the bytes as they arrive, so a chunked body is cut off past the limit.
    let bytes = match Limited::new(body, MAX_BODY_BYTES).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) if e.is::<LengthLimitError>() => return too_large(),
        Err(_) => return error(StatusCode::BAD_REQUEST, "request body could not be read"),
    };
    match user_input::decode(&bytes) {
        Ok(input) => json(
            StatusCode::OK,
            &ValidUser {
                name: input.name,
                age: input.age,
                valid: true,
            },
        ),
        Err(message) => error(StatusCode::BAD_REQUEST, &message),
    }
}

fn method_not_allowed(method: &Method, allow: &'static str) -> Res {
    let mut response = error(
        StatusCode::METHOD_NOT_ALLOWED,
        &format!("method {method} not allowed, use {allow}"),
    );
    response
        .headers_mut()
        .insert(ALLOW, HeaderValue::from_static(allow));
    response
}

fn error(status: StatusCode, message: &str) -> Res {
    json(status, &ApiError { error: message })
}

fn json<T: Serialize>(status: StatusCode, value: &T) -> Res {
    // Plain structs of strings and integers always serialize.
    let body = serde_json::to_vec(value).expect("a response body serializes");
    respond(status, "application/json", body.into())
}

fn text(body: &'static str) -> Res {
    respond(
        StatusCode::OK,
        "text/plain; charset=utf-8",
        Bytes::from_static(body.as_bytes()),
    )
}

/// hyper sets Content-Length from the full body's size.
fn respond(status: StatusCode, content_type: &'static str, body: Bytes) -> Res {
    let mut response = Response::new(Full::new(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::body::Frame;
    use std::collections::VecDeque;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    /// A body sent in chunks without a length, as a chunked request arrives.
    struct Chunked(VecDeque<Bytes>);

    impl Body for Chunked {
        type Data = Bytes;
        type Error = Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
            Poll::Ready(self.0.pop_front().map(|chunk| Ok(Frame::data(chunk))))
        }
    }

    fn run<B>(req: Request<B>) -> (StatusCode, HeaderMap, String)
    where
        B: Body,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let response = runtime.block_on(handle(req)).unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let body = runtime
            .block_on(response.into_body().collect())
            .unwrap()
            .to_bytes();
        (status, headers, String::from_utf8(body.to_vec()).unwrap())
    }

    fn request(
        method: &str,
        uri: &str,
        content_type: Option<&str>,
        body: &str,
    ) -> Request<Full<Bytes>> {
        let mut builder = Request::builder().method(method).uri(uri);
        if let Some(content_type) = content_type {
            builder = builder.header(CONTENT_TYPE, content_type);
        }
        builder
            .body(Full::new(Bytes::from(body.to_string())))
            .unwrap()
    }

    fn person_of_size(size: usize) -> String {
        let (head, tail) = (r#"{"name":"a","age":1,"pad":""#, r#""}"#);
        format!("{head}{}{tail}", "x".repeat(size - head.len() - tail.len()))
    }

    fn assert_error(status: StatusCode, headers: &HeaderMap, body: &str, want: StatusCode) {
        assert_eq!(status, want, "{body}");
        assert_eq!(headers[CONTENT_TYPE], "application/json");
        let value: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(value["error"].is_string(), "{body}");
    }

    #[test]
    fn routes_answer_the_contract() {
        let cases = [
            ("/plaintext", "text/plain; charset=utf-8", "Hello, World!"),
            (
                "/json",
                "application/json",
                r#"{"message":"Hello, World!"}"#,
            ),
            (
                "/user/42?x=1",
                "application/json",
                r#"{"id":"42","name":"User 42"}"#,
            ),
            (
                "/user/caf%C3%A9+100%2541",
                "application/json",
                r#"{"id":"café+100%41","name":"User café+100%41"}"#,
            ),
        ];
        for (uri, content_type, want) in cases {
            let (status, headers, body) = run(request("GET", uri, None, ""));
            assert_eq!(
                (
                    status,
                    headers[CONTENT_TYPE].to_str().unwrap(),
                    body.as_str()
                ),
                (StatusCode::OK, content_type, want),
                "{uri}"
            );
        }
    }

    #[test]
    fn errors_are_json() {
        let valid = r#"{"name":"a","age":1}"#;
        let cases = [
            ("GET", "/nope", None, "", StatusCode::NOT_FOUND),
            ("GET", "/plaintext/extra", None, "", StatusCode::NOT_FOUND),
            ("GET", "/PLAINTEXT", None, "", StatusCode::NOT_FOUND),
            ("GET", "/user/", None, "", StatusCode::NOT_FOUND),
            ("GET", "/user/a/b", None, "", StatusCode::NOT_FOUND),
            ("GET", "/user/%FF", None, "", StatusCode::BAD_REQUEST),
            (
                "POST",
                "/plaintext",
                None,
                "",
                StatusCode::METHOD_NOT_ALLOWED,
            ),
            ("PUT", "/user/42", None, "", StatusCode::METHOD_NOT_ALLOWED),
            ("GET", "/validate", None, "", StatusCode::METHOD_NOT_ALLOWED),
            (
                "POST",
                "/validate",
                None,
                valid,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ),
            (
                "POST",
                "/validate",
                Some("text/json"),
                "{",
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ),
            (
                "POST",
                "/validate",
                Some("application/jsonx"),
                valid,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ),
            (
                "POST",
                "/validate",
                Some("application/json"),
                r#"{"name":"a","age":"30"}"#,
                StatusCode::BAD_REQUEST,
            ),
        ];
        for (method, uri, content_type, body, want) in cases {
            let (status, headers, body) = run(request(method, uri, content_type, body));
            assert_error(status, &headers, &body, want);
        }
        let (_, headers, _) = run(request("PUT", "/user/42", None, ""));
        assert_eq!(headers[ALLOW], "GET, HEAD");
    }

    #[test]
    fn exactly_one_mebibyte_is_accepted() {
        for content_type in ["application/json", "Application/JSON; charset=utf-8"] {
            let (status, _, body) = run(request(
                "POST",
                "/validate",
                Some(content_type),
                &person_of_size(MAX_BODY_BYTES),
            ));
            assert_eq!(
                (status, body.as_str()),
                (StatusCode::OK, r#"{"name":"a","age":1,"valid":true}"#)
            );
        }
    }

    #[test]
    fn one_byte_more_is_413_declared_or_chunked() {
        let body = person_of_size(MAX_BODY_BYTES + 1);
        let (status, headers, text) = run(request(
            "POST",
            "/validate",
            Some("application/json"),
            &body,
        ));
        assert_error(status, &headers, &text, StatusCode::PAYLOAD_TOO_LARGE);

        let chunks = body
            .as_bytes()
            .chunks(64 * 1024)
            .map(Bytes::copy_from_slice)
            .collect();
        let req = Request::builder()
            .method("POST")
            .uri("/validate")
            .header(CONTENT_TYPE, "application/json")
            .body(Chunked(chunks))
            .unwrap();
        let (status, headers, text) = run(req);
        assert_error(status, &headers, &text, StatusCode::PAYLOAD_TOO_LARGE);
    }
}
