#[macro_use]
extern crate rocket;

use std::io;
use std::process::ExitCode;

use rocket::config::{Config, LogLevel};
use rocket::fairing::AdHoc;
use rocket::figment::providers::{Env, Serialized};
use rocket::figment::Figment;
use rocket::http::{ContentType, Header, Status};
use rocket::response::status::Custom;
use rocket::serde::json::{self, json, Json, Value};
use rocket::serde::de::IgnoredAny;
use rocket::serde::{Deserialize, Serialize};
use rocket::{Build, Request, Rocket};

#[derive(Serialize)]
#[serde(crate = "rocket::serde")]
struct Message {
    message: &'static str,
}

#[derive(Serialize)]
#[serde(crate = "rocket::serde")]
struct User<'r> {
    id: &'r str,
    name: String,
}

#[derive(Deserialize)]
#[serde(crate = "rocket::serde")]
struct UserInput {
    name: String,
    age: u8,
    /// Unknown keys are still ignored, but `flatten` changes how: their values go through
    /// serde_json's depth-limited parser (plain skipping has no depth limit, so 100,000 nested
    /// `[` under an unknown key would be accepted), and the struct can only be read from a JSON
    /// object (a derived struct also accepts an array of its fields, `["Alice", 30]`).
    #[serde(flatten)]
    _unknown: IgnoredAny,
}

#[derive(Serialize)]
#[serde(crate = "rocket::serde")]
struct ValidUser {
    name: String,
    age: u8,
    valid: bool,
}

type ApiError = Custom<Value>;

fn api_error(status: Status, message: impl Into<String>) -> ApiError {
    Custom(status, json!({ "error": message.into() }))
}

#[get("/plaintext")]
fn plaintext() -> &'static str {
    "Hello, World!"
}

#[get("/json")]
fn hello_json() -> Json<Message> {
    Json(Message { message: "Hello, World!" })
}

#[get("/user/<id>")]
fn user(id: &str) -> Json<User<'_>> {
    Json(User { id, name: format!("User {id}") })
}

/// Taking the guard's `Result` instead of letting it fail lets the contract's statuses be
/// chosen here: Rocket's `Json` guard would answer 422 to well-formed JSON of the wrong shape.
#[post("/validate", format = "json", data = "<input>")]
fn validate(input: Result<Json<UserInput>, json::Error<'_>>) -> Result<Json<ValidUser>, ApiError> {
    let UserInput { name, age, .. } = match input {
        Ok(Json(input)) => input,
        Err(json::Error::Io(e)) if e.kind() == io::ErrorKind::UnexpectedEof => {
            return Err(api_error(Status::PayloadTooLarge, "request body is larger than 1 MiB"));
        }
        Err(json::Error::Io(e)) if e.kind() == io::ErrorKind::InvalidData => {
            return Err(api_error(Status::BadRequest, "request body is not valid UTF-8"));
        }
        Err(json::Error::Io(e)) => {
            return Err(api_error(Status::BadRequest, format!("could not read request body: {e}")));
        }
        Err(json::Error::Parse(_, e)) => {
            return Err(api_error(Status::BadRequest, format!("invalid JSON body: {e}")));
        }
    };
    if name.is_empty() {
        return Err(api_error(Status::BadRequest, "name must not be empty"));
    }
    if age > 150 {
        return Err(api_error(Status::BadRequest, "age must be between 0 and 150"));
    }
    Ok(Json(ValidUser { name, age, valid: true }))
}

/// Ranked after `validate`: reached only when the request's Content-Type is not JSON.
#[post("/validate", rank = 2)]
fn validate_unsupported_media_type(content_type: Option<&ContentType>) -> ApiError {
    let message = match content_type {
        Some(ct) => format!("Content-Type must be application/json, not {ct}"),
        None => "Content-Type must be application/json".to_string(),
    };
    api_error(Status::UnsupportedMediaType, message)
}

#[catch(404)]
fn not_found(req: &Request<'_>) -> ApiError {
    api_error(Status::NotFound, format!("no route for {} {}", req.method(), req.uri().path()))
}

#[catch(default)]
fn default_catcher(status: Status, _req: &Request<'_>) -> ApiError {
    api_error(status, status.reason_lossy())
}

/// Rocket's own figment (defaults, `Rocket.toml`, `ROCKET_*`) with the contract's defaults
/// (the JSON limit is Rocket's default too, stated because the contract depends on it) and its
/// `HOST`, `PORT` and `WORKERS` variables on top. A `(key, value)` tuple is a global
/// override in figment, so only `log_level` is one.
fn figment() -> Figment {
    Config::figment()
        .merge(Serialized::default("address", "0.0.0.0"))
        .merge(Serialized::default("port", 8080))
        .merge(Serialized::default("workers", 1))
        .merge(Serialized::default("limits.json", "1 MiB"))
        .merge(
            Env::raw()
                .only(&["HOST", "PORT", "WORKERS"])
                .map(|key| if key == "host" { "address".into() } else { key.into() }),
        )
        .merge(("log_level", LogLevel::Off))
}

/// The `Content-Type` value in the form Rocket's media-type parser reads, when the request's
/// value is one it refuses although RFC 9110 §8.3.1 allows it: `parameters = *( OWS ";" OWS
/// [ parameter ] )`, so whitespace before `;` (`application/json ; charset=utf-8`) and empty
/// parameters (`application/json;`, `application/json;;`) are valid, while Rocket's parser wants
/// `;` right after the subtype and a parameter after every `;`. The value is split at each `;`
/// outside a quoted string, each piece trimmed of spaces and tabs, the empty ones dropped, and
/// joined with `"; "`. `None` when there is nothing to change: Rocket then judges the value as
/// before (and a value that is still not a media type stays one Rocket refuses: 415).
fn rfc9110_content_type(value: &str) -> Option<String> {
    let mut pieces = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, c) in value.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ';' if !quoted => {
                pieces.push(&value[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&value[start..]);
    let normalized = pieces
        .iter()
        .map(|piece| piece.trim_matches(|c| c == ' ' || c == '\t'))
        .filter(|piece| !piece.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    (normalized != value).then_some(normalized)
}

fn app(figment: Figment) -> Rocket<Build> {
    rocket::custom(figment)
        // Before routing, so that `format = "json"` sees the media type the client sent. Only a
        // value Rocket cannot parse is touched: the requests the benchmark sends never are.
        .attach(AdHoc::on_request("RFC 9110 Content-Type parameters", |req, _| {
            Box::pin(async move {
                if req.content_type().is_none() {
                    if let Some(value) = req.headers().get_one("Content-Type").and_then(rfc9110_content_type) {
                        req.replace_header(Header::new("Content-Type", value));
                    }
                }
            })
        }))
        .mount("/", routes![plaintext, hello_json, user, validate, validate_unsupported_media_type])
        .register("/", catchers![not_found, default_catcher])
}

fn main() -> ExitCode {
    let figment = figment();
    let config: Config = match figment.extract() {
        Ok(config) => config,
        Err(e) => {
            // figment names HOST by the key it maps to, ADDRESS.
            eprintln!("invalid configuration (HOST is Rocket's address): {e}");
            return ExitCode::FAILURE;
        }
    };
    if config.workers == 0 {
        eprintln!("invalid configuration: WORKERS must be at least 1");
        return ExitCode::FAILURE;
    }

    // `#[launch]` sizes its runtime from Rocket's own figment only, which would ignore WORKERS;
    // building the runtime here gives it exactly `config.workers` worker threads.
    let runtime = rocket::tokio::runtime::Builder::new_multi_thread()
        .worker_threads(config.workers)
        .max_blocking_threads(config.max_blocking)
        .thread_name("rocket-worker-thread")
        .enable_all()
        .build();
    let runtime = match runtime {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };

    match runtime.block_on(app(figment).launch()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("server on {}:{} failed: {e}", config.address, config.port);
            ExitCode::FAILURE
        }
    }
}

/// The departures from Rocket's defaults, through Rocket's local client (no socket); the
/// conformance suite checks the whole contract.
#[cfg(test)]
mod tests {
    use super::*;
    use rocket::local::blocking::Client;

    fn client() -> Client {
        Client::tracked(app(figment())).expect("a valid Rocket instance")
    }

    fn validate(body: &str) -> (Status, Value) {
        let client = client();
        let response = client.post("/validate").header(ContentType::JSON).body(body).dispatch();
        (response.status(), response.into_json().expect("a JSON body"))
    }

    #[test]
    fn plaintext_says_hello() {
        let client = client();
        let response = client.get("/plaintext").dispatch();
        assert_eq!(response.status(), Status::Ok);
        assert_eq!(response.into_string().as_deref(), Some("Hello, World!"));
    }

    #[test]
    fn a_valid_user_is_answered_valid() {
        assert_eq!(validate(r#"{"name":"Alice","age":0,"extra":[1]}"#),
            (Status::Ok, json!({"name": "Alice", "age": 0, "valid": true})));
    }

    #[test]
    fn well_formed_json_of_the_wrong_shape_is_400_not_422() {
        for body in [r#"{"name":"Alice","age":"30"}"#, r#"{"name":"Alice","age":151}"#, r#"{"name":"","age":3}"#,
                     r#"["Alice",30]"#, r#"{"name":"Alice"}"#] {
            let (status, error) = validate(body);
            assert_eq!(status, Status::BadRequest, "{body}");
            assert!(error["error"].is_string(), "{body}: {error}");
        }
    }

    #[test]
    fn another_media_type_is_415_with_a_json_error() {
        let client = client();
        let response = client.post("/validate").header(ContentType::Plain).body("{}").dispatch();
        assert_eq!(response.status(), Status::UnsupportedMediaType);
        let error: Value = response.into_json().expect("a JSON body");
        assert!(error["error"].is_string());
    }

    /// RFC 9110 §8.3.1: `parameters = *( OWS ";" OWS [ parameter ] )` (SPEC 4.2).
    #[test]
    fn every_rfc9110_parameter_form_of_application_json_is_accepted() {
        let client = client();
        for content_type in ["application/json;charset=utf-8", "application/json ; charset=utf-8",
                             "application/json\t;charset=utf-8", r#"application/json; charset="utf-8""#,
                             r#"application/json; x="a;b" ; charset=utf-8"#, "application/json; CHARSET=UTF-8",
                             "application/json; foo=bar", "application/json;", "application/json;;",
                             "application/json; ;charset=utf-8", "APPLICATION/JSON"] {
            let response = client.post("/validate").header(Header::new("Content-Type", content_type))
                .body(r#"{"name":"a","age":1}"#).dispatch();
            assert_eq!(response.status(), Status::Ok, "{content_type}");
        }
        for content_type in ["application/jsonx ;", "text/plain ; charset=utf-8", ";;", "application/json x"] {
            let response = client.post("/validate").header(Header::new("Content-Type", content_type))
                .body(r#"{"name":"a","age":1}"#).dispatch();
            assert_eq!(response.status(), Status::UnsupportedMediaType, "{content_type}");
        }
    }

    #[test]
    fn an_unknown_path_is_a_json_404() {
        let client = client();
        let response = client.get("/nope").dispatch();
        assert_eq!(response.status(), Status::NotFound);
        let error: Value = response.into_json().expect("a JSON body");
        assert_eq!(error["error"], "no route for GET /nope");
    }
}
