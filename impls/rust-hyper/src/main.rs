//! The fairbench baseline for Rust: the contract of docs/SPEC.md on hyper 1 and tokio alone,
//! the floor under rust-rocket.

mod app;
mod user_input;

use std::process::ExitCode;

use tokio::net::TcpListener;
use tokio::signal::unix::{signal, SignalKind};

#[derive(Debug, PartialEq)]
struct Settings {
    host: String,
    port: u16,
    workers: usize,
}

/// Reads HOST, PORT and WORKERS (SPEC 0.1, 0.2) with the manifest's defaults.
fn settings_from_env(getenv: impl Fn(&str) -> Option<String>) -> Result<Settings, String> {
    let host = getenv("HOST")
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty());
    Ok(Settings {
        host: host.unwrap_or_else(|| "0.0.0.0".to_string()),
        port: int_setting(&getenv, "PORT", 8080, 1, 65535)? as u16,
        workers: int_setting(&getenv, "WORKERS", 1, 1, 1024)?,
    })
}

fn int_setting(
    getenv: &impl Fn(&str) -> Option<String>,
    name: &str,
    fallback: usize,
    lo: usize,
    hi: usize,
) -> Result<usize, String> {
    let Some(raw) = getenv(name).filter(|raw| !raw.trim().is_empty()) else {
        return Ok(fallback);
    };
    match raw.trim().parse::<usize>() {
        Ok(value) if (lo..=hi).contains(&value) => Ok(value),
        _ => Err(format!(
            "{name} must be an integer from {lo} to {hi}, got {raw:?}"
        )),
    }
}

fn main() -> ExitCode {
    let settings = match settings_from_env(|name| std::env::var(name).ok()) {
        Ok(settings) => settings,
        Err(e) => {
            eprintln!("rust-hyper: {e}");
            return ExitCode::from(2);
        }
    };
    // WORKERS is the number of tokio worker threads, which run the accept loop and every connection.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(settings.workers)
        .enable_all()
        .build();
    let runtime = match runtime {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("rust-hyper: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(run(settings))
}

async fn run(settings: Settings) -> ExitCode {
    let (mut terminate, mut interrupt) = match (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) {
        (Ok(terminate), Ok(interrupt)) => (terminate, interrupt),
        _ => {
            eprintln!("rust-hyper: cannot install the signal handlers");
            return ExitCode::FAILURE;
        }
    };
    let listener = match TcpListener::bind((settings.host.as_str(), settings.port)).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!(
                "rust-hyper: cannot listen on {}:{}: {e}",
                settings.host, settings.port
            );
            return ExitCode::FAILURE;
        }
    };
    println!(
        "rust-hyper listening on {}:{} with {} worker threads",
        settings.host, settings.port, settings.workers
    );
    // Spawned, so the accept loop runs on a worker thread too; this thread only waits for a signal.
    let server = tokio::spawn(app::serve(listener));
    tokio::select! {
        _ = terminate.recv() => ExitCode::SUCCESS,
        _ = interrupt.recv() => ExitCode::SUCCESS,
        _ = server => {
            eprintln!("rust-hyper: the accept loop stopped");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn settings_come_from_the_environment_with_defaults() {
        let settings = settings_from_env(env(&[
            ("HOST", "127.0.0.1"),
            ("PORT", "18600"),
            ("WORKERS", "2"),
        ]));
        assert_eq!(
            settings,
            Ok(Settings {
                host: "127.0.0.1".into(),
                port: 18600,
                workers: 2
            })
        );
        let defaults = settings_from_env(env(&[]));
        assert_eq!(
            defaults,
            Ok(Settings {
                host: "0.0.0.0".into(),
                port: 8080,
                workers: 1
            })
        );
    }

    #[test]
    fn invalid_settings_are_refused() {
        for bad in [("WORKERS", "0"), ("WORKERS", "two"), ("PORT", "70000")] {
            assert!(
                settings_from_env(env(&[bad])).is_err(),
                "{bad:?} was accepted"
            );
        }
    }
}
