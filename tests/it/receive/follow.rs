//! `receive --follow`: it prints what arrives after it started, applies its filters, and stops on
//! Ctrl-C.

use sqsctl::message::MessageRecord;

use crate::support::{TestEnv, unique_name};

/// `receive --follow` started with `args` into a pipe, once it is polling (its `-v` line says so).
struct Follow {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Follow {
    fn start(env: &TestEnv, args: &[&str]) -> Follow {
        use std::io::BufRead;
        let mut child = env.spawn_piped(&[&["receive", "--follow", "-v"], args].concat());
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        while stderr.read_line(&mut line).unwrap() > 0 {
            if line.contains("receiving with") || line.contains("one batch at a time") {
                break;
            }
            line.clear();
        }
        // Keep draining stderr so the child never blocks on it.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Follow { child, lines }
    }

    fn next_line(&self) -> String {
        self.lines
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("a message within 20 s")
    }

    /// Ctrl-C, and the exit code.
    fn interrupt(mut self) -> i32 {
        crate::support::sigint(self.child.id());
        self.child.wait().unwrap().code().unwrap_or(-1)
    }
}

#[test]
fn follow_prints_what_arrives_after_it_started_and_stops_on_ctrl_c() {
    let env = TestEnv::start();
    let queue = env.create_queue(&unique_name("follow"), &[]);
    let follow = Follow::start(&env, &[&queue.name, "--format", "{body}"]);
    env.send(&queue, vec![MessageRecord::with_body("first")]);
    assert_eq!(follow.next_line(), "first");
    // An empty long poll does not end the run: a later message is printed too.
    env.send(&queue, vec![MessageRecord::with_body("second")]);
    assert_eq!(follow.next_line(), "second");
    assert_eq!(follow.interrupt(), 130);
    // Without --delete, both are still in the queue.
    assert_eq!(env.depth(&queue), 2);
}

#[test]
fn follow_with_delete_and_a_filter_consumes_only_what_matches() {
    let env = TestEnv::start();
    let queue = env.create_queue(&unique_name("follow"), &[]);
    let follow = Follow::start(
        &env,
        &[
            &queue.name,
            "--delete",
            "--yes",
            "--grep",
            "^ERROR",
            "--format",
            "{body}",
        ],
    );
    env.send(
        &queue,
        vec![
            MessageRecord::with_body("INFO started"),
            MessageRecord::with_body("ERROR disk full"),
        ],
    );
    assert_eq!(follow.next_line(), "ERROR disk full");
    assert_eq!(follow.interrupt(), 130);
    assert_eq!(env.drain_bodies(&queue), ["INFO started"]);
}
