//! The body rules of SPEC 5-8, on serde_json's `Value`.
//!
//! serde_json parses RFC 8259 strictly: no NaN or Infinity, no trailing data, no raw control
//! characters in strings, and a recursion limit of 128 levels (deep nesting is an error, never a
//! stack overflow). Object keys are exact, and of duplicate keys the last one wins.
//!
//! With the `arbitrary_precision` feature a `Number` keeps its text: a number beyond f64 under an
//! unknown key (`1e400`) is ignored like the key (SPEC 8.4), and `age` is read exactly from its
//! text, so a fraction too fine for an f64 (`30.000000000000001`, `1e-400`) stays a fraction
//! (SPEC 7.8) instead of rounding to an integer.

use serde_json::Value;

#[derive(Debug, PartialEq)]
pub struct UserInput {
    pub name: String,
    pub age: u8,
}

pub fn decode(body: &[u8]) -> Result<UserInput, String> {
    let text =
        std::str::from_utf8(body).map_err(|_| "request body is not valid UTF-8".to_string())?;
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("request body is not valid JSON: {e}"))?;
    let mut object = match value {
        Value::Object(object) => object,
        other => {
            return Err(format!(
                "request body must be a JSON object, got {}",
                kind(&other)
            ))
        }
    };
    let name = match object.remove("name") {
        None => return Err("name is required".to_string()),
        Some(Value::String(name)) if !name.is_empty() => name,
        Some(other) => {
            return Err(format!(
                "name must be a non-empty string, got {}",
                kind(&other)
            ))
        }
    };
    let age = match object.get("age") {
        None => return Err("age is required".to_string()),
        // The number's text is read exactly: 30.0 and 3e1 are the integer 30 (SPEC 7.10).
        Some(Value::Number(number)) => match small_integer(number.as_str()) {
            Some(age @ 0..=150) => age as u8,
            _ => {
                return Err(format!(
                    "age must be an integer from 0 to 150, got {number}"
                ))
            }
        },
        Some(other) => {
            return Err(format!(
                "age must be an integer from 0 to 150, got {}",
                kind(other)
            ))
        }
    };
    Ok(UserInput { name, age })
}

/// The integer a JSON number's text (RFC 8259 grammar, already checked by the parser) equals,
/// when it is one of magnitude below 10,000; None for a fraction (30.5, 30.000000000000001,
/// 1e-400) or anything larger (1e400). Only digits are counted, so 1e999999999 costs nothing.
fn small_integer(number: &str) -> Option<i32> {
    let (negative, unsigned) = match number.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, number),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => match unsigned[i + 1..].parse::<i64>() {
            // The body is at most 1 MiB, so beyond 2^21 the exponent alone decides: the value
            // is zero (0e99999999999), or else huge or a fraction.
            Ok(e) if e.abs() <= 1 << 21 => (&unsigned[..i], e),
            _ => return unsigned[..i].trim_matches(['0', '.']).is_empty().then_some(0),
        },
        None => (unsigned, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    let significant = digits.trim_end_matches('0');
    if significant.is_empty() {
        return Some(0); // 0, -0, 0.000, 0e5
    }
    let exponent = exponent - fraction.len() as i64 + (digits.len() - significant.len()) as i64;
    if exponent < 0 || significant.len() as i64 + exponent > 4 {
        return None;
    }
    let n: i32 = format!("{significant}{}", "0".repeat(exponent as usize)).parse().ok()?;
    Some(if negative { -n } else { n })
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(s) if s.is_empty() => "the empty string",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_people_are_accepted() {
        let cases = [
            (r#"{"name":"a","age":0}"#, "a", 0),
            (r#"{"name":"a","age":150}"#, "a", 150),
            (r#"{"name":"a","age":30.0}"#, "a", 30),
            (r#"{"name":"a","age":3e1}"#, "a", 30),
            (r#"{"name":"a","age":1.5e2}"#, "a", 150),
            (r#"{"name":" ","age":1}"#, " ", 1),
            (r#"{"name":"😀","age":1}"#, "😀", 1),
            (
                r#"{"name":"Zoë \"q\" \\ \n\t\u0000","age":1}"#,
                "Zoë \"q\" \\ \n\t\0",
                1,
            ),
            (r#"{"Name":"x","name":"y","age":1}"#, "y", 1),
            (r#"{"name":"a","age":1,"extra":[1,{}]}"#, "a", 1),
            (r#"{"name":"a","age":1,"name":"b","age":2}"#, "b", 2),
            (r#"{"name":"a","age":-0}"#, "a", 0),
            (r#"{"name":"a","age":1500e-1}"#, "a", 150),
            (r#"{"name":"a","age":0.0e99999999999}"#, "a", 0),
            (r#"{"name":"a","age":1,"x":-1e400}"#, "a", 1),
        ];
        for (body, name, age) in cases {
            assert_eq!(
                decode(body.as_bytes()),
                Ok(UserInput {
                    name: name.to_string(),
                    age
                }),
                "{body}"
            );
        }
    }

    #[test]
    fn what_the_contract_refuses_is_refused() {
        let deep = format!(
            r#"{{"name":"a","age":1,"x":{}{}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let cases = [
            ("", "request body is not valid JSON"),
            (
                r#"{"name":"a","age":1} x"#,
                "request body is not valid JSON",
            ),
            (
                r#"{"name":"a","age":1}{}"#,
                "request body is not valid JSON",
            ),
            (
                r#"{"name":"a","age":NaN}"#,
                "request body is not valid JSON",
            ),
            (
                "{\"name\":\"a\u{1}\",\"age\":1}",
                "request body is not valid JSON",
            ),
            (
                &deep,
                "request body is not valid JSON: recursion limit exceeded",
            ),
            (
                r#"{"name":"a","age":1e400}"#,
                "age must be an integer from 0 to 150, got 1e",
            ),
            (
                r#"{"name":"a","age":30.000000000000001}"#,
                "age must be an integer from 0 to 150, got 30.000000000000001",
            ),
            (
                r#"{"name":"a","age":150.0000000000000000001}"#,
                "age must be an integer from 0 to 150, got 150.0000000000000000001",
            ),
            (
                r#"{"name":"a","age":1e-400}"#,
                "age must be an integer from 0 to 150, got 1e-400",
            ),
            (
                r#"{"name":"a","age":1e-999999999999}"#,
                "age must be an integer from 0 to 150, got 1e-999999999999",
            ),
            ("null", "request body must be a JSON object, got null"),
            ("[]", "request body must be a JSON object, got an array"),
            (r#"{"NAME":"a","AGE":1}"#, "name is required"),
            (
                r#"{"name":"","age":1}"#,
                "name must be a non-empty string, got the empty string",
            ),
            (
                r#"{"name":null,"age":1}"#,
                "name must be a non-empty string, got null",
            ),
            (r#"{"name":"a"}"#, "age is required"),
            (
                r#"{"name":"a","age":"30"}"#,
                "age must be an integer from 0 to 150, got a string",
            ),
            (
                r#"{"name":"a","age":true}"#,
                "age must be an integer from 0 to 150, got a boolean",
            ),
            (
                r#"{"name":"a","age":[30]}"#,
                "age must be an integer from 0 to 150, got an array",
            ),
            (
                r#"{"name":"a","age":-1}"#,
                "age must be an integer from 0 to 150, got -1",
            ),
            (
                r#"{"name":"a","age":151.0}"#,
                "age must be an integer from 0 to 150, got 151.0",
            ),
            (
                r#"{"name":"a","age":30.5}"#,
                "age must be an integer from 0 to 150, got 30.5",
            ),
            (
                r#"{"name":"a","age":99999999999999999999}"#,
                "age must be an integer from 0 to 150, got 99999999999999999999",
            ),
        ];
        for (body, message) in cases {
            let error = decode(body.as_bytes()).expect_err(&body[..body.len().min(40)]);
            assert!(
                error.starts_with(message),
                "{}: {error}, want {message}",
                &body[..body.len().min(40)]
            );
        }
        assert_eq!(
            decode(b"{\"name\":\"\xff\",\"age\":1}"),
            Err("request body is not valid UTF-8".to_string())
        );
    }
}
