//! The connection every command makes: AWS settings (profile, region, credentials, endpoint URL)
//! that are wrong are errors that say so, a hung or foreign endpoint ends with a clear error naming
//! it, and nothing from the endpoint (credentials it echoes, escapes) reaches the terminal raw.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

use support::TestEnv;
use support::snapshot::{assert_snapshot, transcript};

/// A server on loopback that answers every request with what `answer` returns for the request's
/// `X-Amz-Target` (or never answers, when it returns `None`). For endpoints that are not SQS, or
/// that misbehave.
pub(crate) struct FakeEndpoint {
    pub(crate) url: String,
}

impl FakeEndpoint {
    pub(crate) fn start(
        answer: impl Fn(&str) -> Option<String> + Send + Sync + 'static,
    ) -> FakeEndpoint {
        FakeEndpoint::start_seeing_headers(move |target, _| answer(target))
    }

    /// [`FakeEndpoint::start`] with an `answer` that also sees the request's header lines, as sent.
    fn start_seeing_headers(
        answer: impl Fn(&str, &str) -> Option<String> + Send + Sync + 'static,
    ) -> FakeEndpoint {
        FakeEndpoint::start_seeing_requests(move |target, headers, _| answer(target, headers))
    }

    /// [`FakeEndpoint::start`] with an `answer` that sees the whole request: its `X-Amz-Target`,
    /// its header lines as sent, and its body.
    fn start_seeing_requests(
        answer: impl Fn(&str, &str, &[u8]) -> Option<String> + Send + Sync + 'static,
    ) -> FakeEndpoint {
        use std::io::{BufRead, BufReader, Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let answer = std::sync::Arc::new(answer);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let answer = answer.clone();
                std::thread::spawn(move || {
                    loop {
                        let mut reader = BufReader::new(&mut stream);
                        let mut target = String::new();
                        let mut headers = String::new();
                        let mut length = 0usize;
                        let mut line = String::new();
                        loop {
                            line.clear();
                            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                                return;
                            }
                            let lower = line.to_ascii_lowercase();
                            if let Some(v) = lower.strip_prefix("content-length:") {
                                length = v.trim().parse().unwrap_or(0);
                            }
                            if lower.starts_with("x-amz-target:") {
                                target = line["x-amz-target:".len()..].trim().to_string();
                            }
                            if line == "\r\n" {
                                break;
                            }
                            headers.push_str(&line);
                        }
                        let mut body = vec![0; length];
                        if reader.read_exact(&mut body).is_err() {
                            return;
                        }
                        match answer(&target, &headers, &body) {
                            Some(response) => {
                                if stream.write_all(response.as_bytes()).is_err() {
                                    return;
                                }
                            }
                            // Hold the connection open and never answer.
                            None => std::thread::sleep(std::time::Duration::from_secs(600)),
                        }
                    }
                });
            }
        });
        FakeEndpoint { url }
    }
}

fn http(status: &str, content_type: &str, extra_headers: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{extra_headers}\r\n{body}",
        body.len()
    )
}

#[test]
fn a_hung_endpoint_ends_with_an_error_naming_it_and_the_timeout() {
    let env = TestEnv::start();
    let hung = FakeEndpoint::start(|_| None);
    let started = std::time::Instant::now();
    let run = env.run(&["queues", "--endpoint-url", &hung.url, "--read-timeout", "1"]);
    let took = started.elapsed();
    run.assert_code(1);
    assert_snapshot!(run.stderr, r"\d+\.\d s in all" => "N.N s in all");
    assert!(took < std::time::Duration::from_secs(30), "took {took:?}");

    // The timeout also comes from the environment.
    let mut cmd = env.cmd();
    cmd.env("SQSCTL_READ_TIMEOUT", "1")
        .args(["queues", "--endpoint-url", &hung.url]);
    let output = cmd.output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_snapshot!(
        name: "from_the_environment",
        String::from_utf8_lossy(&output.stderr),
        r"\d+\.\d s in all" => "N.N s in all"
    );

    // A long poll is not a timeout: its wait comes on top of the read timeout.
    let queue = env.create_queue("quiet", &[]);
    let run = env.run(&["receive", "quiet", "--wait", "2", "--read-timeout", "1"]);
    run.assert_code(0);
    assert_eq!(env.depth(&queue), 0);
}

/// The one `error:` line of a timed-out call, with its total time (varying by a few
/// hundredths) replaced by `N.N`; and that total.
fn timeout_line(stderr: &str) -> (String, f64) {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("error:"))
        .unwrap_or_default();
    let total = regex::Regex::new(r"(\d+\.\d) s in all")
        .unwrap()
        .captures(line)
        .map_or(f64::NAN, |c| c[1].parse().unwrap());
    let line = regex::Regex::new(r"127\.0\.0\.1:\d+|\d+\.\d s in all")
        .unwrap()
        .replace_all(line, |c: &regex::Captures<'_>| {
            if c[0].ends_with("in all") {
                "N.N s in all".to_string()
            } else {
                "ENDPOINT".to_string()
            }
        })
        .into_owned();
    (line, total)
}

#[test]
fn a_hung_call_costs_two_read_timeouts_retries_included_and_says_so() {
    let env = TestEnv::start();
    let hung = FakeEndpoint::start(|_| None);
    let started = std::time::Instant::now();
    let run = env.run(&["queues", "--endpoint-url", &hung.url, "--read-timeout", "2"]);
    let took = started.elapsed().as_secs_f64();
    run.assert_code(1);
    let (line, total) = timeout_line(&run.stderr);
    assert_eq!(
        line,
        "error: http://ENDPOINT did not answer ListQueues in time (no answer within 2s (--read-timeout); 2 attempts, N.N s in all)"
    );
    assert!((3.9..5.0).contains(&total), "{total}: {}", run.stderr);
    assert!((3.9..7.0).contains(&took), "took {took} s");

    // The calls this layer retries itself (receives, batches) end the same way: here the queue's
    // URL comes back, and the receive is never answered.
    let half = FakeEndpoint::start(|target| {
        (target == "AmazonSQS.GetQueueUrl").then(|| {
            http(
                "200 OK",
                "application/x-amz-json-1.0",
                "",
                r#"{"QueueUrl":"http://127.0.0.1:1/000000000000/q"}"#,
            )
        })
    });
    let started = std::time::Instant::now();
    let run = env.run(&[
        "receive",
        "q",
        "--endpoint-url",
        &half.url,
        "--read-timeout",
        "1",
        "--wait",
        "0",
    ]);
    let took = started.elapsed().as_secs_f64();
    run.assert_code(1);
    let (line, total) = timeout_line(&run.stderr);
    assert!(
        line.contains("no answer within 1s (--read-timeout); 2 attempts, N.N s in all"),
        "{}",
        run.stderr
    );
    assert!((1.9..3.0).contains(&total), "{total}: {}", run.stderr);
    assert!(took < 5.0, "took {took} s");
}

#[test]
fn an_endpoint_that_is_not_sqs_is_named_with_its_status_type_and_body() {
    let env = TestEnv::start();
    let page = FakeEndpoint::start(|_| {
        Some(http(
            "404 Not Found",
            "text/html",
            "",
            "<html><body><h1>Not Found</h1>\x1b]0;pwned\x07</body></html>",
        ))
    });
    let run = env.run(&["queues", "--endpoint-url", &page.url]);
    run.assert_code(1);
    assert_snapshot!(name: "not_found_page", run.stderr);
    assert!(!run.stderr.contains('\x1b'), "{}", run.stderr);

    let unimplemented =
        FakeEndpoint::start(|_| Some(http("501 Not Implemented", "text/plain", "", "nope")));
    let run = env.run(&["queues", "--endpoint-url", &unimplemented.url]);
    run.assert_code(1);
    assert_snapshot!(name: "not_implemented", run.stderr);
}

#[test]
fn credentials_an_endpoint_echoes_never_reach_the_output() {
    const KEY_ID: &str = "AKIAIOSFODNN7EXAMPLE";
    const SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    const TOKEN: &str = "IQoJb3JpZ2luX2VjEJr8SessionTokenOfTheTest0123456789abcdef";
    let env = TestEnv::start();
    // What the request carried, credentials first so they fall within the quoted start of the
    // body; the signature is the last field of the Authorization header, so it is echoed too.
    let echoed = |headers: &str| {
        let mut lines: Vec<&str> = headers.lines().collect();
        lines.sort_by_key(|l| {
            let lower = l.to_ascii_lowercase();
            !(lower.starts_with("authorization") || lower.starts_with("x-amz-security-token"))
        });
        lines.join("\n")
    };
    let html = FakeEndpoint::start_seeing_headers(move |_, headers| {
        let page = format!("<html><body><pre>{}</pre></body></html>", echoed(headers));
        Some(http("403 Forbidden", "text/html", "", &page))
    });
    let plain = FakeEndpoint::start_seeing_headers(move |_, headers| {
        Some(http(
            "500 Internal Server Error",
            "text/plain",
            "",
            &format!("your request:\n{}", echoed(headers)),
        ))
    });
    for endpoint in [&html.url, &plain.url] {
        for verbosity in ["-v", "-vv"] {
            let output = env
                .cmd()
                .env("AWS_ACCESS_KEY_ID", KEY_ID)
                .env("AWS_SECRET_ACCESS_KEY", SECRET)
                .env("AWS_SESSION_TOKEN", TOKEN)
                .args(["queues", verbosity, "--endpoint-url", endpoint])
                .output()
                .unwrap();
            let run = support::Run::from_output(output);
            run.assert_code(1);
            let all = format!("{}{}", run.stdout, run.stderr);
            // The endpoint's body is quoted, without what it echoed of the credentials.
            assert!(all.contains("as SQS does: HTTP"), "{all}");
            assert!(all.contains("[redacted]"), "{all}");
            for secret in [KEY_ID, SECRET, TOKEN, "Signature=", "AKIA"] {
                assert!(!all.contains(secret), "{secret} in: {all}");
            }
        }
    }
}

/// The credentials of a run, distinctive enough that a match in the output can only be a leak;
/// none starts as AWS's key ids do, so only their values can find them, not their shape.
const KEY_ID: &str = "KeyIdOfTheLeakTest0042";
const SECRET: &str = "SecretOfTheLeakTest/0042+sz9=";
const TOKEN: &str = "TokenOfTheLeakTest/0042+abcdefghijklmnopqrstuvwxyz0123==";

/// `value` percent-encoded, as a query string carries it.
pub(crate) fn percent_encoded(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// What an endpoint that echoes a request says of it: its headers as a map of lists (as many web
/// frameworks dump them), their values alone, and their values percent-encoded; and, as a
/// misconfigured credential proxy might, the secret key it was given.
fn echo_of(headers: &str) -> String {
    let pairs: Vec<(String, String)> = headers
        .lines()
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
        .collect();
    let map: serde_json::Map<String, serde_json::Value> = pairs
        .iter()
        .map(|(name, value)| (name.clone(), serde_json::json!([value])))
        .collect();
    let values: Vec<&str> = pairs.iter().map(|(_, value)| value.as_str()).collect();
    let query: Vec<String> = pairs
        .iter()
        .map(|(name, value)| format!("{name}={}", percent_encoded(value)))
        .collect();
    format!(
        "your request: {}; values: {}; as a query: {}; signed for the proxy with {SECRET}",
        serde_json::Value::Object(map),
        values.join(" "),
        query.join("&")
    )
}

/// Every kind of command, at `-vv`, against an endpoint that echoes each request into SQS-shaped
/// answers: an error for a whole call, and for a batch call an answer whose entries failed with
/// the echo as their message (which commands write on stdout). A queue's URL is answered, so that
/// each command goes on to its own calls. Whatever shape the echo takes, the values of the
/// credentials in use appear neither on stdout nor on stderr.
#[test]
fn no_command_prints_the_credentials_an_endpoint_echoes_at_any_verbosity() {
    let env = TestEnv::start();
    let endpoint = FakeEndpoint::start_seeing_requests(|target, headers, body| {
        let request: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
        let json = "application/x-amz-json-1.0";
        let echo = echo_of(headers);
        Some(match target {
            "AmazonSQS.GetQueueUrl" => {
                let host = headers
                    .lines()
                    .find_map(|l| {
                        l.to_ascii_lowercase()
                            .strip_prefix("host:")
                            .map(|h| h.trim().to_string())
                    })
                    .unwrap_or_default();
                let name = request["QueueName"].as_str().unwrap_or("q");
                let url = format!("http://{host}/000000000000/{name}");
                http(
                    "200 OK",
                    json,
                    "",
                    &serde_json::json!({ "QueueUrl": url }).to_string(),
                )
            }
            "AmazonSQS.SendMessageBatch"
            | "AmazonSQS.DeleteMessageBatch"
            | "AmazonSQS.ChangeMessageVisibilityBatch" => {
                let failed: Vec<serde_json::Value> = request["Entries"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|entry| {
                        serde_json::json!({
                            "Id": entry["Id"],
                            "Code": "InvalidParameterValue",
                            "Message": echo,
                            "SenderFault": true,
                        })
                    })
                    .collect();
                let answer = serde_json::json!({ "Successful": [], "Failed": failed });
                http("200 OK", json, "", &answer.to_string())
            }
            _ => {
                let error = serde_json::json!({
                    "__type": "com.amazonaws.sqs#InvalidParameterValue",
                    "message": echo,
                });
                http(
                    "400 Bad Request",
                    json,
                    "x-amzn-query-error: InvalidParameterValue;Sender\r\n",
                    &error.to_string(),
                )
            }
        })
    });
    let commands: [&[&str]; 20] = [
        &["queues"],
        &["queue", "info", "q"],
        &["queue", "create", "q"],
        &["queue", "delete", "q", "--yes"],
        &["queue", "set", "q", "--visibility", "2m", "--yes"],
        &["queue", "tag", "q", "team=a"],
        &["queue", "untag", "q", "team"],
        &["send", "q", "one"],
        &["send", "q", "--lines"],
        &["receive", "q", "--wait", "0"],
        &["peek", "q"],
        &["purge", "q", "--yes"],
        &["delete", "q", "AQEBnot-a-real-handle", "--yes"],
        &["delete", "q", "--message-id", "0c4f5c7e-0000", "--yes"],
        &[
            "visibility",
            "q",
            "AQEBnot-a-real-handle",
            "--timeout",
            "30",
        ],
        &["redrive", "q-dlq", "--to", "q", "--yes"],
        &["diagnose", "q"],
        &["groups", "q.fifo"],
        &["top", "--count", "1"],
        &["consume", "q", "--max", "1", "--", "true"],
    ];
    let run = |args: &[&str], from_profile: bool| {
        let mut cmd = env.cmd();
        if from_profile {
            cmd.args(["--profile", "leak"]);
        } else {
            cmd.env("AWS_ACCESS_KEY_ID", KEY_ID)
                .env("AWS_SECRET_ACCESS_KEY", SECRET)
                .env("AWS_SESSION_TOKEN", TOKEN);
        }
        cmd.args(["-vv", "--endpoint-url", &endpoint.url])
            .args(args);
        let run = support::run_with_stdin(cmd, "two\nthree\n");
        let all = format!("{}{}", run.stdout, run.stderr);
        // The echo reached the output (so the command made its calls), without the values.
        assert!(all.contains("[redacted]"), "{args:?}: {all}");
        for value in [KEY_ID, SECRET, TOKEN] {
            for form in [value.to_string(), percent_encoded(value)] {
                assert!(
                    !all.contains(&form),
                    "{args:?} (profile: {from_profile}): {form} in:\n{all}"
                );
            }
        }
        run.stdout.contains("[redacted]")
    };
    let mut redacted_on_stdout = 0;
    for args in commands {
        if run(args, false) {
            redacted_on_stdout += 1;
        }
    }
    // Batch entries' failures are records on stdout: that path was taken too.
    assert!(redacted_on_stdout >= 2, "{redacted_on_stdout}");

    // Credentials from a profile (the environment's stand-ins lose to --profile) are left out
    // as well, once the client has resolved them.
    std::fs::write(
        env.home().join("aws-config"),
        "[profile leak]\nregion = us-east-1\n",
    )
    .unwrap();
    std::fs::write(
        env.home().join("aws-credentials"),
        format!(
            "[leak]\naws_access_key_id = {KEY_ID}\naws_secret_access_key = {SECRET}\naws_session_token = {TOKEN}\n"
        ),
    )
    .unwrap();
    for args in [&commands[0], &commands[8], &commands[9]] {
        run(args, true);
    }
}

#[test]
fn an_unknown_profile_is_an_error_even_with_credentials_in_the_environment() {
    let env = TestEnv::start();
    env.create_queue("orders", &[]);
    std::fs::write(
        env.home().join("aws-config"),
        "[default]\nregion = us-east-1\n\n[profile staging]\nregion = us-east-1\n",
    )
    .unwrap();
    let run = env.run(&["queues", "--profile", "nosuch"]);
    run.assert_code(1);
    assert_snapshot!(run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);

    let mut cmd = env.cmd();
    cmd.env("AWS_PROFILE", "prdo").arg("queues");
    let output = cmd.output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_snapshot!(name: "misspelt_profile", String::from_utf8_lossy(&output.stderr));

    // A profile that exists is used, and its credentials win over the environment's.
    std::fs::write(
        env.home().join("aws-credentials"),
        "[staging]\naws_access_key_id = from-profile\naws_secret_access_key = x\n",
    )
    .unwrap();
    env.run(&["queues", "--profile", "staging"]).assert_code(0);
}

#[test]
fn fips_or_dual_stack_with_a_custom_endpoint_is_a_usage_error_and_nothing_is_sent() {
    let env = TestEnv::start();
    env.create_queue("orders", &[]);
    let refused = |variables: &[(&str, &str)], args: &[&str], says: &str| {
        let mut cmd = env.cmd();
        for (name, value) in variables {
            cmd.env(name, value);
        }
        let started = std::time::Instant::now();
        let output = cmd.args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(stderr.contains("hint: FIPS and dual-stack"), "{stderr}");
        assert!(!stderr.contains("may or may not"), "{stderr}");
        // Refused before any request: not retried as a failed connection would be.
        assert!(started.elapsed() < Duration::from_secs(5), "{args:?}");
    };
    let fips = "FIPS and custom endpoint are not supported";
    refused(
        &[("AWS_USE_FIPS_ENDPOINT", "true")],
        &["send", "orders", "hi"],
        fips,
    );
    refused(
        &[("AWS_USE_DUALSTACK_ENDPOINT", "true")],
        &["queues"],
        "Dualstack and custom endpoint are not supported",
    );
    // The same setting from the profile file.
    std::fs::write(
        env.home().join("aws-config"),
        "[default]\nuse_fips_endpoint = true\n",
    )
    .unwrap();
    refused(&[], &["send", "orders", "hi"], fips);
    std::fs::remove_file(env.home().join("aws-config")).unwrap();
    env.run(&["send", "orders", "hi"]).assert_code(0);
    let received = env.run(&["receive", "orders", "--max", "10", "-o", "json"]);
    let messages: Vec<serde_json::Value> = serde_json::from_str(&received.stdout).unwrap();
    assert_eq!(
        messages.len(),
        1,
        "only the last send went: {}",
        received.stdout
    );
}

#[test]
fn the_endpoint_named_by_verbose_is_the_one_called_and_a_blank_variable_is_refused() {
    let env = TestEnv::start();
    env.create_queue("orders", &[]);
    let endpoint = env.endpoint().to_string();
    let said = |variables: &[(&str, &str)]| {
        let mut cmd = env.cmd();
        cmd.env_remove("AWS_ENDPOINT_URL_SQS");
        for (name, value) in variables {
            cmd.env(name, value);
        }
        let output = cmd.args(["-v", "send", "orders", "hi"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        (output.status.code(), stderr)
    };
    let endpoint_line = |stderr: &str| {
        stderr
            .lines()
            .find(|line| line.starts_with("debug: region"))
            .map(str::to_string)
            .unwrap_or_default()
    };
    // SQS's own variable wins over the one for every service (here a port nothing listens on),
    // and -v names it.
    let (code, stderr) = said(&[
        ("AWS_ENDPOINT_URL_SQS", &endpoint),
        ("AWS_ENDPOINT_URL", "http://127.0.0.1:9"),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let line = endpoint_line(&stderr);
    assert!(
        line.contains(&format!("{endpoint} (AWS_ENDPOINT_URL_SQS)")),
        "{line}"
    );
    let (code, stderr) = said(&[("AWS_ENDPOINT_URL", &endpoint)]);
    assert_eq!(code, Some(0), "{stderr}");
    let line = endpoint_line(&stderr);
    assert!(
        line.contains(&format!("{endpoint} (AWS_ENDPOINT_URL)")),
        "{line}"
    );
    // The same from the profile's services section, read by the SDK's own loader.
    std::fs::write(
        env.home().join("aws-config"),
        format!(
            "[default]\nservices = here\n\n[services here]\nsqs =\n  endpoint_url = {endpoint}\n"
        ),
    )
    .unwrap();
    let (code, stderr) = said(&[]);
    assert_eq!(code, Some(0), "{stderr}");
    let line = endpoint_line(&stderr);
    assert!(
        line.contains(&format!("{endpoint} (the profile's services section)")),
        "{line}"
    );
    // Set but empty: the SDK cannot use it (it would panic); a usage error names it.
    for variable in ["AWS_ENDPOINT_URL_SQS", "AWS_ENDPOINT_URL"] {
        let (code, stderr) = said(&[(variable, "")]);
        assert_eq!(code, Some(2), "{variable}: {stderr}");
        assert!(
            stderr.contains(&format!("{variable}=\"\": set but empty")),
            "{stderr}"
        );
    }
    let received = env.run(&["receive", "orders", "--max", "10", "-o", "json"]);
    let messages: Vec<serde_json::Value> = serde_json::from_str(&received.stdout).unwrap();
    assert_eq!(messages.len(), 3, "{}", received.stdout);
}

#[test]
fn a_region_that_is_not_a_region_name_is_refused() {
    let env = TestEnv::start();
    let mut refusals = String::new();
    for bad in ["us-east1", "useast-1", "US-EAST-1", "eu-west-1 "] {
        let args = ["queues", "--region", bad];
        let run = env.run(&args);
        run.assert_code(1);
        refusals.push_str(&transcript(&args, &run));
    }
    assert_snapshot!(refusals);
    env.run(&["queues", "--region", "eu-west-1"]).assert_code(0);
}

#[test]
fn verbose_output_never_shows_the_password_of_an_endpoint_url() {
    let env = TestEnv::start();
    env.create_queue("orders", &[]);
    let endpoint = env.endpoint().replacen("http://", "http://user:s3cret@", 1);
    let run = env.run(&["queues", "-vv", "--endpoint-url", &endpoint]);
    assert!(!run.stderr.contains("s3cret"), "{}", run.stderr);
    assert!(run.stderr.contains("***@"), "{}", run.stderr);
    let hung = FakeEndpoint::start(|_| None);
    let endpoint = hung.url.replacen("http://", "http://user:s3cret@", 1);
    let run = env.run(&[
        "queues",
        "--endpoint-url",
        &endpoint,
        "--read-timeout",
        "0.5",
    ]);
    run.assert_code(1);
    assert!(!run.stderr.contains("s3cret"), "{}", run.stderr);
}

#[test]
fn text_from_the_endpoint_never_reaches_a_terminal_raw() {
    let env = TestEnv::start();
    let evil = FakeEndpoint::start(|target| {
        let json = "application/x-amz-json-1.0";
        Some(match target {
            "AmazonSQS.GetQueueUrl" => http(
                "200 OK",
                json,
                "",
                r#"{"QueueUrl":"http://127.0.0.1:1/000000000000/q"}"#,
            ),
            // `receive` without --delete reads the queue's visibility timeout and redrive policy
            // first.
            "AmazonSQS.GetQueueAttributes" => http(
                "200 OK",
                json,
                "",
                r#"{"Attributes":{"VisibilityTimeout":"30"}}"#,
            ),
            "AmazonSQS.ReceiveMessage" => http(
                "200 OK",
                json,
                "",
                r#"{"Messages":[{"MessageId":"id\u001b]0;pwned\u0007","ReceiptHandle":"h","Body":"b\u009b31m\u202ex"}]}"#,
            ),
            _ => http(
                "400 Bad Request",
                json,
                "x-amzn-query-error: InvalidAddress;Sender\r\n",
                r#"{"__type":"com.amazonaws.sqs#InvalidAddress","message":"bad \u001b]0;pwned\u0007 address"}"#,
            ),
        })
    });
    let raw = |screen: &str| {
        screen.contains('\x1b') && screen.contains("]0;pwned")
            || screen.contains('\u{9b}')
            || screen.contains('\u{202e}')
    };
    for args in [
        vec!["receive", "q", "--max", "1"],
        vec!["receive", "q", "--max", "1", "-o", "jsonl"],
        vec!["receive", "q", "--max", "1", "-o", "json"],
        vec!["receive", "q", "--max", "1", "-o", "text"],
        vec!["queues"],
        vec!["purge", "\x1b]0;pwned\x07"],
        // A usage error quotes the argument as typed.
        vec!["receive", "q", "--max", "1\x1b]0;pwned\x07"],
    ] {
        let mut full = args.clone();
        full.extend(["--endpoint-url", evil.url.as_str()]);
        let mut pty = env.pty(&full, &[]);
        pty.wait(20);
        let screen = pty.screen();
        assert!(!raw(&screen), "{args:?} printed raw escapes:\n{screen:?}");
    }
    // The JSON stays JSON: the escapes are JSON escapes of the same text.
    let mut pty = env.pty(
        &[
            "receive",
            "q",
            "--max",
            "1",
            "-o",
            "jsonl",
            "--endpoint-url",
            &evil.url,
        ],
        &[],
    );
    pty.wait(20);
    let screen = pty.screen();
    let line = screen
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no record: {screen:?}"));
    let record: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(record["data"]["body"], "b\u{9b}31m\u{202e}x");
}

#[test]
fn missing_credentials_get_a_credentials_error_and_hint_not_a_network_one() {
    let env = TestEnv::start();
    // With instance metadata off; and with a metadata endpoint that answers nonsense, which is
    // where the provider chain ends on a machine without credentials.
    let imds = [
        ("AWS_EC2_METADATA_DISABLED", "true"),
        ("AWS_EC2_METADATA_SERVICE_ENDPOINT", env.endpoint()),
    ];
    for (name, value) in imds {
        let output = env
            .cmd()
            .env_remove("AWS_ACCESS_KEY_ID")
            .env_remove("AWS_SECRET_ACCESS_KEY")
            .env_remove("AWS_EC2_METADATA_DISABLED")
            .env(name, value)
            .args(["queues"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{name}: {stderr}");
        assert_snapshot!(name: name.to_lowercase(), stderr);
    }
}

#[test]
fn an_invalid_endpoint_url_is_a_usage_error_without_a_request_dump() {
    let env = TestEnv::start();
    let run = env.run(&["--endpoint-url", "notaurl", "queues"]);
    run.assert_code(2);
    assert_snapshot!(name: "invalid_endpoint_flag", run.stderr);
    let output = env
        .cmd()
        .env("AWS_ENDPOINT_URL_SQS", "notaurl")
        .args(["queues"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_snapshot!(name: "invalid_endpoint_variable", stderr);
}

#[test]
fn verbose_shows_endpoint_region_and_batches_but_never_a_secret() {
    let env = TestEnv::start();
    env.create_queue("loud", &[]);
    const MARKER: &str = "SeCrEtMaRkEr0123456789";
    let run_with_secret = |args: &[&str], stdin: &str| {
        let mut child = env
            .cmd()
            .env("AWS_SECRET_ACCESS_KEY", MARKER)
            .env("AWS_SESSION_TOKEN", MARKER)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(!stderr.contains(MARKER), "{args:?}: {stderr}");
        assert!(!stdout.contains(MARKER), "{args:?}: {stdout}");
        stderr
    };
    let stderr = run_with_secret(&["queues", "-v"], "");
    assert!(stderr.contains("debug: region us-east-1"), "{stderr}");
    assert!(
        stderr.contains(&format!("endpoint {}", env.endpoint())),
        "{stderr}"
    );
    assert!(stderr.contains("ListQueues found 1 queue"), "{stderr}");
    let stderr = run_with_secret(&["send", "loud", "--lines", "-vv"], "a\nb\nc\n");
    assert!(
        stderr.contains("debug: queue `loud` (account 000000000000, us-east-1) is http://"),
        "{stderr}"
    );
    assert!(
        stderr.contains("batch of lines 1-3: 3 sent, 0 not sent"),
        "{stderr}"
    );
    let stderr = run_with_secret(&["receive", "loud", "-vv", "--max", "3"], "");
    assert!(stderr.contains("received a batch of"), "{stderr}");
    run_with_secret(&["receive", "no-such-queue", "-vv"], "");
    run_with_secret(
        &[
            "send",
            "loud",
            "-vv",
            "--endpoint-url",
            "http://127.0.0.1:1",
            "x",
        ],
        "",
    );
}
