//! `sqsctl browse` on a pseudo-terminal against `sqsctl local`, as a person at a terminal uses it:
//! marked messages redriven to the source (the others untouched), an edited message sent back,
//! Ctrl-C at the list, at the question and during an action (nothing half done, the journal
//! resumable), and the refusal without a terminal. The screens themselves are tested with
//! ratatui's TestBackend beside the code (`src/commands/browse/screen.rs`).

use std::time::Duration;

use sqsctl::client::QueueRef;
use sqsctl::local::ServerConfig;
use sqsctl::message::MessageRecord;

use crate::support::{TestEnv, unique_name};

/// A source queue and its DLQ (maxReceiveCount 5), the DLQ holding `bodies`.
fn source_and_dlq(env: &TestEnv, bodies: Vec<String>) -> (QueueRef, QueueRef) {
    let (source, dlq) = queues(env, 5);
    env.send(
        &dlq,
        bodies.into_iter().map(MessageRecord::with_body).collect(),
    );
    (source, dlq)
}

/// A source queue with a DLQ after `max_receive_count` receives.
fn queues(env: &TestEnv, max_receive_count: u32) -> (QueueRef, QueueRef) {
    let prefix = unique_name("browse");
    let dlq = env.create_queue(&format!("{prefix}-dlq"), &[]);
    let policy = format!(
        r#"{{"deadLetterTargetArn":"{}","maxReceiveCount":"{max_receive_count}"}}"#,
        env.arn(&dlq)
    );
    let source = env.create_queue(&format!("{prefix}-src"), &[("RedrivePolicy", &policy)]);
    (source, dlq)
}

fn numbered(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("body-{i:02}")).collect()
}

/// The bodies (`body-NN`) of the rows marked `*`.
fn marked_bodies(screen: &str) -> Vec<String> {
    let mut bodies: Vec<String> = screen
        .lines()
        .filter(|line| line.starts_with("* "))
        .filter_map(|line| {
            line.split_whitespace()
                .find(|word| word.starts_with("body-"))
                .map(str::to_string)
        })
        .collect();
    bodies.sort();
    bodies
}

fn sorted(mut bodies: Vec<String>) -> Vec<String> {
    bodies.sort();
    bodies
}

fn journals(env: &TestEnv) -> Vec<std::path::PathBuf> {
    let dir = env.home().join("state/sqsctl/redrive");
    std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default()
}

#[test]
fn three_marked_messages_redrive_to_the_source_and_the_other_47_stay_in_the_dlq() {
    // Through the inspection endpoint on an exact server; by receives on a --like-sqs one.
    let env = match crate::support::like_sqs_seed() {
        Some(_) => TestEnv::start(),
        None => TestEnv::with_inspection(),
    };
    let (source, dlq) = source_and_dlq(&env, numbered(50));
    let mut run = env.pty(&["browse", &dlq.name], &[]);
    run.expect_rendered("50 shown of 50 read, 0 marked", 20);
    run.expect_rendered("account 000000000000, us-east-1", 5);
    if !env.is_like_sqs() {
        // Read through the inspection endpoint: no receive count was raised.
        run.expect_rendered("reads are free", 5);
        let listed = env
            .block_on(env.sqs().inspection().visible_messages(&dlq, 100))
            .unwrap();
        assert_eq!(listed.messages.len(), 50);
        assert!(
            listed
                .messages
                .iter()
                .all(|m| m.attribute_u64("ApproximateReceiveCount") == Some(0)),
            "{:?}",
            listed.messages
        );
    }
    run.send("   ");
    run.expect_rendered("3 marked", 5);
    let marked = marked_bodies(&run.rendered());
    assert_eq!(marked.len(), 3, "{}", run.rendered());
    run.send("r");
    run.expect_rendered("confirm", 10);
    let question = run.rendered();
    for line in [
        "Redrive 3 messages".to_string(),
        format!("from `{}` (account 000000000000, us-east-1)", dlq.name),
        format!("to `{}` (account 000000000000, us-east-1)?", source.name),
        "journal: ".to_string(),
    ] {
        assert!(question.contains(&line), "{line}: {question}");
    }
    run.send("y");
    run.expect_rendered(&format!("redrove 3 of 3 messages to `{}`", source.name), 30);
    if !env.is_like_sqs() {
        // Free to read on sqsctl local: the list is read again after the action.
        run.expect_rendered("47 shown of 47 read, 0 marked", 10);
    }
    run.send("q");
    assert_eq!(run.wait(10), 0, "{}", run.rendered());
    assert_eq!(sorted(env.drain_bodies(&source)), marked);
    let left = sorted(env.drain_bodies(&dlq));
    assert_eq!(left.len(), 47, "{left:?}");
    assert!(left.iter().all(|body| !marked.contains(body)), "{left:?}");
    assert_eq!(
        journals(&env).len(),
        1,
        "one journal under the state directory"
    );
}

#[test]
fn three_marked_messages_copy_to_the_source_once_and_the_dlq_keeps_all_20() {
    let env = match crate::support::like_sqs_seed() {
        Some(_) => TestEnv::start(),
        None => TestEnv::with_inspection(),
    };
    let (source, dlq) = source_and_dlq(&env, numbered(20));
    let mut run = env.pty(&["browse", &dlq.name], &[]);
    run.expect_rendered("20 shown of 20 read, 0 marked", 20);
    run.send("   ");
    run.expect_rendered("3 marked", 5);
    let marked = marked_bodies(&run.rendered());
    assert_eq!(marked.len(), 3, "{}", run.rendered());
    run.send("y");
    run.expect_rendered("confirm", 10);
    let question = run.rendered();
    for line in [
        "Copy 3 messages (a copy: nothing is deleted)".to_string(),
        format!("from `{}` (account 000000000000, us-east-1)", dlq.name),
        format!("to `{}` (account 000000000000, us-east-1)?", source.name),
        "The DLQ keeps its messages".to_string(),
        "journal: ".to_string(),
    ] {
        assert!(question.contains(&line), "{line}: {question}");
    }
    run.send("y");
    run.expect_rendered(&format!("copied 3 of 3 messages to `{}`", source.name), 60);
    // Nothing left the DLQ: the list keeps every message, and the marks.
    run.expect_rendered("20 shown of 20 read, 3 marked", 5);
    run.send("q");
    assert_eq!(run.wait(10), 0, "{}", run.rendered());
    assert_eq!(
        sorted(env.drain_bodies(&source)),
        marked,
        "each copied once"
    );
    let kept = sorted(env.drain_bodies(&dlq));
    assert_eq!(kept, numbered(20), "the DLQ keeps all 20");
    let journals = journals(&env);
    assert_eq!(journals.len(), 1, "one journal under the state directory");
    let journal = std::fs::read_to_string(&journals[0]).unwrap();
    assert!(journal.contains(r#""copy":true"#), "{journal}");
}

#[test]
fn an_edited_message_is_sent_back_to_the_source_with_its_new_body() {
    let env = TestEnv::start();
    let bodies: Vec<String> = (0..5)
        .map(|i| format!(r#"{{"n":{i},"state":"broken"}}"#))
        .collect();
    let (source, dlq) = source_and_dlq(&env, bodies);
    let editor = env.home().join("fix.sh");
    std::fs::write(&editor, "#!/bin/sh\nsed -i 's/broken/fixed/' \"$1\"\n").unwrap();
    std::fs::set_permissions(&editor, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut run = env.pty(
        &["browse", &dlq.name],
        &[("EDITOR", editor.to_str().unwrap())],
    );
    run.expect_rendered("5 shown of 5 read", 20);
    run.send("e");
    run.expect_rendered("Send the edited message back", 20);
    run.send("y");
    run.expect_rendered("redrove 1 of 1 message", 30);
    run.send("q");
    assert_eq!(run.wait(10), 0, "{}", run.rendered());
    let sent = env.drain_bodies(&source);
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(sent[0].contains(r#""state":"fixed""#), "{sent:?}");
    let left = env.drain_bodies(&dlq);
    assert_eq!(left.len(), 4, "{left:?}");
    assert!(left.iter().all(|b| b.contains("broken")), "{left:?}");
    // The edited message left the DLQ: its number is not among those left.
    let n = &sent[0][..7];
    assert!(left.iter().all(|b| !b.starts_with(n)), "{left:?}");
}

#[test]
fn an_edit_that_changes_nothing_sends_nothing() {
    let env = TestEnv::start();
    let (source, dlq) = source_and_dlq(&env, numbered(2));
    let mut run = env.pty(&["browse", &dlq.name], &[("EDITOR", "true")]);
    run.expect_rendered("2 shown of 2 read", 20);
    run.send("e");
    run.expect_rendered("the message was not changed: nothing to send", 20);
    run.send("q");
    assert_eq!(run.wait(10), 0);
    assert!(env.drain_bodies(&source).is_empty());
    assert_eq!(env.drain_bodies(&dlq).len(), 2);
}

#[test]
fn ctrl_c_in_the_editor_is_the_editors_and_browse_goes_on() {
    let env = TestEnv::start();
    let (source, dlq) = source_and_dlq(&env, numbered(2));
    let editor = env.home().join("slow.sh");
    std::fs::write(&editor, "#!/bin/sh\necho EDITING\nsleep 30\n").unwrap();
    std::fs::set_permissions(&editor, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut run = env.pty(
        &["browse", &dlq.name],
        &[("EDITOR", editor.to_str().unwrap())],
    );
    run.expect_rendered("2 shown of 2 read", 20);
    run.send("e");
    run.expect("EDITING", 10);
    run.send("\x03");
    run.expect_rendered("nothing was sent", 10);
    // browse goes on: the Ctrl-C was the editor's, not a stop.
    std::thread::sleep(Duration::from_secs(1));
    run.send("q");
    assert_eq!(run.wait(10), 0, "{}", run.rendered());
    assert!(env.drain_bodies(&source).is_empty());
    assert_eq!(env.drain_bodies(&dlq).len(), 2);
}

#[test]
fn sigterm_or_sighup_in_the_editor_closes_it_restores_the_terminal_and_sends_nothing() {
    let env = TestEnv::start();
    let (source, dlq) = source_and_dlq(&env, numbered(2));
    let editor = env.home().join("slow.sh");
    let pid_file = env.home().join("editor.pid");
    std::fs::write(
        &editor,
        format!(
            "#!/bin/sh\necho $$ > {}\necho EDITING\nexec sleep 30\n",
            pid_file.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&editor, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    for (signal, code) in [("TERM", 143), ("HUP", 129)] {
        let _ = std::fs::remove_file(&pid_file);
        let mut run = env.pty(
            &["browse", &dlq.name],
            &[("EDITOR", editor.to_str().unwrap())],
        );
        run.expect_rendered("2 shown of 2 read", 20);
        run.send("e");
        run.expect("EDITING", 10);
        let editor_pid = std::fs::read_to_string(&pid_file).unwrap();
        let started = std::time::Instant::now();
        crate::support::signal(run.pid(), signal);
        assert_eq!(run.wait(10), code, "SIG{signal}: {}", run.rendered());
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "SIG{signal}: browse ended at once, not when the editor would have: {:?}",
            started.elapsed()
        );
        let screen = run.screen();
        assert!(
            screen.contains("stopped: the editor was closed; nothing was sent"),
            "SIG{signal}: {screen:?}"
        );
        // The terminal is back in its normal mode: the main screen, the cursor shown.
        let last_leave = screen.rfind("\x1b[?1049l");
        assert!(
            last_leave.is_some_and(|at| !screen[at..].contains("\x1b[?1049h")),
            "SIG{signal}: {screen:?}"
        );
        assert!(
            !std::path::Path::new(&format!("/proc/{}", editor_pid.trim())).exists(),
            "SIG{signal}: the editor (pid {}) was ended",
            editor_pid.trim()
        );
        let scratch = env.home().join("state/sqsctl/browse");
        let left: Vec<_> = std::fs::read_dir(&scratch)
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        assert!(left.is_empty(), "SIG{signal}: scratch files left: {left:?}");
    }
    assert!(env.drain_bodies(&source).is_empty());
    assert_eq!(env.drain_bodies(&dlq).len(), 2);
    assert!(journals(&env).is_empty(), "nothing was prepared");
}

#[test]
fn ctrl_c_at_the_list_or_at_the_question_changes_nothing_and_restores_the_terminal() {
    let env = TestEnv::start();
    let (source, dlq) = source_and_dlq(&env, numbered(10));
    let mut run = env.pty(&["browse", &dlq.name], &[]);
    run.expect_rendered("10 shown of 10 read", 20);
    run.send("\x03");
    assert_eq!(run.wait(10), 130);
    // The main screen is back and the cursor shown.
    assert!(run.screen().contains("\x1b[?1049l"), "{:?}", run.screen());
    assert!(run.screen().contains("\x1b[?25h"), "{:?}", run.screen());
    assert!(run.screen().contains("interrupted: nothing was changed"));

    let mut run = env.pty(&["browse", &dlq.name], &[]);
    run.expect_rendered("10 shown of 10 read", 20);
    run.send("  r");
    run.expect_rendered("confirm", 10);
    run.send("\x03");
    assert_eq!(run.wait(10), 130);
    assert!(
        run.screen()
            .contains("cancelled: the redrive did not run; nothing was changed"),
        "{:?}",
        run.screen()
    );
    assert!(journals(&env).is_empty(), "{:?}", journals(&env));
    assert!(env.drain_bodies(&source).is_empty());
    assert_eq!(env.drain_bodies(&dlq).len(), 10);
}

#[test]
fn ctrl_c_during_a_redrive_stops_it_with_a_journal_that_resume_completes() {
    // A server 400 ms away, so that the redrive is still running when Ctrl-C comes.
    let env = TestEnv::start_with(ServerConfig {
        latency: Duration::from_millis(400),
        ..ServerConfig::default()
    });
    let (source, dlq) = source_and_dlq(&env, numbered(30));
    let mut run = env.pty(&["browse", &dlq.name], &[]);
    run.expect_rendered("30 shown of 30 read", 30);
    run.send("a");
    run.expect_rendered("30 marked", 5);
    run.send("r");
    run.expect_rendered("confirm", 20);
    run.send("y");
    run.expect_rendered("redriving:", 10);
    run.send("\x03");
    assert_eq!(run.wait(60), 130, "{}", run.rendered());
    let said = run.screen();
    assert!(said.contains("stopped: redrove"), "{said:?}");
    assert!(said.contains("sqsctl redrive --resume"), "{said:?}");
    let journals = journals(&env);
    assert_eq!(journals.len(), 1);
    let journal = journals[0].to_str().unwrap();
    let resumed = env.run(&["redrive", "--resume", journal, "--yes"]);
    resumed.assert_code(0);
    // Every message once: what the interrupted action moved and what the resume moved.
    assert_eq!(sorted(env.drain_bodies(&source)), numbered(30));
    assert!(env.drain_bodies(&dlq).is_empty());
}

#[test]
fn without_a_terminal_browse_is_a_usage_error_pointing_to_peek() {
    let env = TestEnv::start();
    let run = env.run(&["browse", "orders-dlq"]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("browse needs a terminal on stdin and stdout")
            && run.stderr.contains("`sqsctl peek orders-dlq`"),
        "{}",
        run.stderr
    );
}

#[test]
fn marked_messages_delete_and_export_as_the_commands_do_and_redrive_to_a_queue_typed_in() {
    let env = TestEnv::start();
    let (source, dlq) = source_and_dlq(&env, numbered(6));
    let other = env.create_queue(&unique_name("browse-other"), &[]);
    let export = env.home().join("marked.jsonl");
    let mut run = env.pty(&["browse", &dlq.name], &[]);
    run.expect_rendered("6 shown of 6 read", 20);
    // Export the first two: the records `peek -o jsonl` writes.
    run.send("  ");
    run.expect_rendered("2 marked", 5);
    let exported = marked_bodies(&run.rendered());
    run.send("x");
    run.expect_rendered("export to file (JSON Lines): _", 5);
    run.send(&format!("{}\r", export.display()));
    run.expect_rendered("(JSON Lines)?", 10);
    run.send("y");
    run.expect_rendered("exported 2 messages to", 10);
    // Delete them.
    run.send("d");
    run.expect_rendered("This cannot be undone.", 10);
    run.send("y");
    run.expect_rendered("deleted 2 of 2 messages from", 30);
    // Redrive the one under the cursor to a queue typed in.
    run.send("t");
    run.expect_rendered("redrive to queue (name, URL or ARN): _", 5);
    run.send(&format!("{}\r", other.name));
    run.expect_rendered(&format!("to `{}` (account", other.name), 10);
    run.send("y");
    run.expect_rendered(&format!("redrove 1 of 1 message to `{}`", other.name), 30);
    run.send("q");
    assert_eq!(run.wait(10), 0, "{}", run.rendered());

    let lines = std::fs::read_to_string(&export).unwrap();
    let records: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2, "{lines}");
    assert!(records.iter().all(|r| r["type"] == "message"), "{lines}");
    let mut bodies: Vec<String> = records
        .iter()
        .map(|r| r["data"]["body"].as_str().unwrap().to_string())
        .collect();
    bodies.sort();
    assert_eq!(bodies, exported);
    assert!(records.iter().all(|r| r["data"]["message_id"].is_string()
        && r["data"]["attributes"]["SentTimestamp"].is_string()
        && r["data"].get("receipt_handle").is_none()));
    let moved = env.drain_bodies(&other);
    assert_eq!(moved.len(), 1);
    assert!(env.drain_bodies(&source).is_empty());
    let left = sorted(env.drain_bodies(&dlq));
    assert_eq!(left.len(), 3, "{left:?}");
    assert!(
        left.iter()
            .all(|b| !exported.contains(b) && !moved.contains(b)),
        "{left:?}"
    );
}

#[test]
fn sigterm_and_sighup_end_browse_cleanly_and_restore_the_terminal() {
    let env = TestEnv::start();
    let (_, dlq) = source_and_dlq(&env, numbered(3));
    for (signal, code) in [("TERM", 143), ("HUP", 129)] {
        let mut run = env.pty(&["browse", &dlq.name], &[]);
        run.expect_rendered("3 shown of 3 read", 20);
        crate::support::signal(run.pid(), signal);
        assert_eq!(run.wait(10), code, "SIG{signal}");
        assert!(run.screen().contains("\x1b[?1049l"), "{:?}", run.screen());
        assert!(run.screen().contains("stopped: nothing was changed"));
    }
    assert_eq!(env.drain_bodies(&dlq).len(), 3);
}

#[test]
fn the_read_guard_refuses_a_queue_that_reading_could_dead_letter_unless_forced() {
    // By receives (no inspection endpoint), as on SQS.
    let env = TestEnv::start();
    let (source, dlq) = queues(&env, 2);
    env.send(
        &source,
        numbered(3)
            .into_iter()
            .map(MessageRecord::with_body)
            .collect(),
    );
    let mut run = env.pty(&["browse", &source.name], &[]);
    assert_eq!(run.wait(20), 1, "{}", run.screen());
    let said = run.screen();
    assert!(
        said.contains("could move messages to its dead-letter queue"),
        "{said}"
    );
    assert!(
        said.contains("`sqsctl browse --force` reads it anyway"),
        "{said}"
    );
    assert_eq!(env.depth(&dlq), 0);

    let mut run = env.pty(&["browse", &source.name, "--force"], &[]);
    run.expect_rendered("3 shown of 3 read", 30);
    run.expect_rendered("each read (R) uses 1 of each message's 2 receives", 5);
    run.send("q");
    assert_eq!(run.wait(10), 0);
}

#[test]
fn a_fifo_dlq_shows_each_message_group_and_redrives_the_marked_message() {
    let env = TestEnv::with_inspection();
    let prefix = unique_name("browse");
    let fifo = [("FifoQueue", "true"), ("ContentBasedDeduplication", "true")];
    let dlq = env.create_queue(&format!("{prefix}-dlq.fifo"), &fifo);
    let policy = format!(
        r#"{{"deadLetterTargetArn":"{}","maxReceiveCount":"5"}}"#,
        env.arn(&dlq)
    );
    let mut attributes = fifo.to_vec();
    attributes.push(("RedrivePolicy", &policy));
    let source = env.create_queue(&format!("{prefix}-src.fifo"), &attributes);
    env.send(
        &dlq,
        (0..4)
            .map(|i| MessageRecord {
                group_id: Some(["tenant-a", "tenant-b"][i % 2].to_string()),
                ..MessageRecord::with_body(format!("body-{i:02}"))
            })
            .collect(),
    );
    let mut run = env.pty(&["browse", &dlq.name], &[]);
    run.expect_rendered("4 shown of 4 read", 20);
    let screen = run.rendered();
    assert!(screen.contains(" group "), "{screen}");
    assert!(
        screen.contains("tenant-a") && screen.contains("tenant-b"),
        "{screen}"
    );
    // The counts panel starts with the groups.
    assert!(screen.contains("by group"), "{screen}");
    run.send(" ");
    run.expect_rendered("1 marked", 5);
    let marked = marked_bodies(&run.rendered());
    run.send("r");
    run.expect_rendered("confirm", 10);
    run.send("y");
    run.expect_rendered("redrove 1 of 1 message", 30);
    run.send("q");
    assert_eq!(run.wait(10), 0, "{}", run.rendered());
    assert_eq!(env.drain_bodies(&source), marked);
    assert_eq!(env.drain_bodies(&dlq).len(), 3);
}
