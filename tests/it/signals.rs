//! SIGTERM and SIGHUP, as a service manager (`kill`, systemd, Kubernetes) and a closed terminal
//! send them: handled by every command as Ctrl-C is, with 143 and 129 as exit codes; and Ctrl-C
//! during work, which gives requests in flight the grace period. `consume`'s own tests cover its
//! commands and messages; these cover the rest through the binary.

use std::io::{BufRead, BufReader, Read};

use sqsctl::message::MessageRecord;

use crate::connection::FakeEndpoint;
use crate::support::{self, TestEnv, unique_name};

#[test]
fn sigterm_stops_receive_follow_as_ctrl_c_does_and_exits_143() {
    let env = TestEnv::start();
    let queue = env.create_queue(&unique_name("follow"), &[]);
    let mut child = env.spawn_piped(&[
        "receive",
        "--follow",
        &queue.name,
        "--delete",
        "--yes",
        "--format",
        "{body}",
    ]);
    env.send(&queue, vec![MessageRecord::with_body("first")]);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line, "first\n");
    support::signal(child.id(), "TERM");
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("stopping on SIGTERM"), "{stderr}");
    // The delete of what was written finished within the grace period.
    assert_eq!(env.depth(&queue), 0, "{stderr}");
}

#[test]
fn sighup_or_sigterm_at_a_prompt_cancels_with_nothing_changed() {
    let env = TestEnv::start();
    let queue = env.create_queue(&unique_name("orders"), &[]);
    env.send(&queue, vec![MessageRecord::with_body("keep")]);
    for (signal, code) in [("HUP", 129), ("TERM", 143)] {
        let mut pty = env.pty(&["purge", &queue.name], &[]);
        pty.expect("[y/N]", 20);
        support::signal(pty.pid(), signal);
        assert_eq!(pty.wait(10), code, "SIG{signal}: {}", pty.screen());
        assert!(
            pty.screen().contains("cancelled: nothing was changed"),
            "SIG{signal}: {}",
            pty.screen()
        );
        assert_eq!(env.depth(&queue), 1, "SIG{signal}: nothing purged");
    }
}

#[test]
fn ctrl_c_during_work_gives_requests_in_flight_the_grace_period_then_stops_with_130() {
    let env = TestEnv::start();
    let hung = FakeEndpoint::start(|_| None);
    let mut pty = env.pty(
        &["queues", "--endpoint-url", &hung.url],
        &[("SQSCTL_INTERRUPT_GRACE", "1")],
    );
    // Let the request go out, then press Ctrl-C once.
    std::thread::sleep(std::time::Duration::from_millis(700));
    let pressed = std::time::Instant::now();
    pty.send("\x03");
    let code = pty.wait(20);
    let took = pressed.elapsed();
    assert_eq!(code, 130, "{}", pty.screen());
    let screen = pty.screen();
    assert!(
        screen.contains("requests in flight have 1s to finish"),
        "{screen}"
    );
    assert!(screen.contains("their outcome is unknown"), "{screen}");
    // The grace period (1 s) and the time to wrap up (2 s), not the 30 s read timeout.
    assert!(took < std::time::Duration::from_secs(10), "took {took:?}");
    assert!(took >= std::time::Duration::from_secs(1), "took {took:?}");
}
