//! The real `sqslite` binary: bad configs stop it with exit code 2 and a message naming file
//! and line, `--print-config` shows flags winning over the file, `sqslite health` probes.

use std::process::{Command, Output};

use sqslite::{Config, Server};

fn fixture(name: &str) -> String {
    format!("{}/fixtures/config/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn sqslite(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sqslite"))
        .args(args)
        .env_remove("SQSLITE_PORT")
        .env_remove("SQSLITE_CONFIG")
        .env_remove("SQSLITE_STRICT")
        .output()
        .expect("binary runs")
}

#[test]
fn a_bad_config_file_stops_startup_with_exit_code_2() {
    let path = fixture("bad/unknown-key.toml");
    let out = sqslite(&["--config", &path, "--port", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "{path}:5: unknown key `visibility_timeout` in a queue; did you mean `VisibilityTimeout`?"
        )),
        "{stderr}"
    );
}

#[test]
fn a_queue_sqs_would_refuse_stops_startup_with_its_message() {
    let path = fixture("bad/bad-attribute.toml");
    let out = sqslite(&["--config", &path, "--port", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad-attribute.toml:2: queue `orders`: InvalidAttributeValue"),
        "{stderr}"
    );
}

#[test]
fn print_config_shows_flags_winning_over_an_elasticmq_file() {
    let out = sqslite(&[
        "--config",
        &fixture("elasticmq.conf"),
        "--port",
        "5555",
        "--print-config",
    ]);
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();
    let config = Config::from_text("printed.toml", &printed)
        .expect("printed config parses")
        .config;
    assert_eq!(config.port, 5555);
    assert_eq!(config.host, "0.0.0.0");
    assert_eq!(config.queues.len(), 4);
}

#[test]
fn print_config_round_trips_a_sqslite_toml() {
    let path = fixture("sqslite.toml");
    let out = sqslite(&["--config", &path, "--print-config"]);
    assert!(out.status.success());
    let printed = Config::from_text("printed.toml", &String::from_utf8(out.stdout).unwrap())
        .unwrap()
        .config;
    let original = Config::from_file(&path).unwrap().config;
    let strip = |c: &Config| {
        c.queues
            .iter()
            .map(|q| {
                (
                    q.name.clone(),
                    q.attributes.clone(),
                    q.tags.clone(),
                    q.dead_letter.clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&printed), strip(&original));
    assert_eq!(printed.templates.len(), 1);
}

#[test]
fn print_config_keeps_alarms_and_faults() {
    let (dir, path) = config_file(
        "print",
        "[alarms]\nstall_seconds = 30\nwebhook = \"http://127.0.0.1:1/hook\"\n\n\
         [[faults]]\naction = \"ReceiveMessage\"\nqueue = \"payments\"\n\
         error = \"ServiceUnavailable\"\nprobability = 0.5\n",
    );
    let out = sqslite(&["--config", path.to_str().unwrap(), "--print-config"]);
    assert!(out.status.success(), "{out:?}");
    let printed = Config::from_text("printed.toml", &String::from_utf8(out.stdout).unwrap())
        .unwrap()
        .config;
    let original = Config::from_file(&path).unwrap().config;
    assert_eq!(printed.admin.alarms, original.admin.alarms);
    assert_eq!(printed.admin.alarms.stall_seconds, 30);
    assert_eq!(printed.admin.faults, original.admin.faults);
    assert_eq!(printed.admin.faults.len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `text` written as `sqslite.toml` in a directory of this test's own: the directory and the file.
fn config_file(tag: &str, text: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("sqslite-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sqslite.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn printed(out: &Output) -> Config {
    assert!(out.status.success(), "{out:?}");
    Config::from_text("printed.toml", &String::from_utf8_lossy(&out.stdout))
        .expect("printed config parses")
        .config
}

/// Secrets are printed as a placeholder unless `--with-secrets` asks; the placeholder read
/// back stops the start by name instead of becoming the secret.
#[test]
fn print_config_hides_secrets_unless_asked() {
    let (dir, path) = config_file(
        "secrets",
        "[[credentials]]\naccess_key_id = \"AKIDTEAM\"\nsecret_access_key = \"team-secret\"\n\
         account_id = \"111111111111\"\n",
    );
    let path = path.to_str().unwrap();
    let args = [
        "--config",
        path,
        "--admin-token",
        "admin-secret",
        "--print-config",
    ];
    let hidden = sqslite(&args);
    assert!(hidden.status.success(), "{hidden:?}");
    let text = String::from_utf8(hidden.stdout).unwrap();
    for secret in ["team-secret", "admin-secret"] {
        assert!(!text.contains(secret), "{text}");
    }
    assert_eq!(text.matches("--with-secrets").count(), 2, "{text}");
    let err = Config::from_text("printed.toml", &text)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("placeholder") && err.contains("--with-secrets"),
        "{err}"
    );
    let unhidden = ["--with-secrets"]
        .iter()
        .chain(&args)
        .copied()
        .collect::<Vec<_>>();
    let shown = printed(&sqslite(&unhidden));
    assert_eq!(shown.credentials[0].secret_access_key, "team-secret");
    assert_eq!(shown.access.admin_token.as_deref(), Some("admin-secret"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The 60-second guards are off unless `--strict`, SQSLITE_STRICT or `strict = true` asks.
#[test]
fn strict_comes_from_the_flag_the_environment_or_the_file() {
    assert!(!printed(&sqslite(&["--print-config"])).strict);
    assert!(printed(&sqslite(&["--strict", "--print-config"])).strict);
    let by_env = Command::new(env!("CARGO_BIN_EXE_sqslite"))
        .args(["--print-config"])
        .env_remove("SQSLITE_CONFIG")
        .env("SQSLITE_STRICT", "true")
        .output()
        .expect("binary runs");
    assert!(printed(&by_env).strict);
    let file = Config::from_text("s.toml", "[server]\nstrict = true\n").unwrap();
    assert!(file.config.strict);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_subcommand_probes_a_running_server() {
    let server = Server::start(Config::ephemeral()).await.unwrap();
    let port = server.local_addr().port().to_string();
    let healthy = tokio::task::spawn_blocking(move || sqslite(&["health", "--port", &port]))
        .await
        .unwrap();
    assert!(healthy.status.success(), "{healthy:?}");
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed = free.local_addr().unwrap().port().to_string();
    drop(free);
    let unhealthy = tokio::task::spawn_blocking(move || sqslite(&["health", "--port", &closed]))
        .await
        .unwrap();
    assert_eq!(unhealthy.status.code(), Some(1));
}

/// `SQSLITE_ADMIN_TOKEN=` (a compose file's unset variable) must stop the start, not open
/// the admin API to every caller.
#[test]
fn an_empty_admin_token_stops_startup_with_exit_code_2() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sqslite"))
        .args(["--port", "0"])
        .env_remove("SQSLITE_CONFIG")
        .env("SQSLITE_ADMIN_TOKEN", "")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(10) {
            child.kill().unwrap();
            panic!("sqslite started with an empty admin token");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(2));
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("SQSLITE_ADMIN_TOKEN"), "{stderr}");
}

#[test]
fn sqslite_drill_trigger_runs_in_one_process_and_exits_0() {
    let listing = String::from_utf8_lossy(&sqslite(&["drill"]).stdout).into_owned();
    assert!(listing.contains("  trigger "), "{listing}");
    let out = sqslite(&["drill", "trigger", "--batch", "9", "--poll-ms", "10"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("drill passed (3 checks)"), "{stdout}");
}

/// `sqslite drill ARGS` run in `dir`, where a bare name may be a file.
fn drill_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sqslite"))
        .arg("drill")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("binary runs")
}

/// A fresh directory for one test's drill files.
fn drill_dir(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("sqslite-{name}-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Numbers that crashed or hung the runner (issue 50, L5) stop `drill check` with exit 2 at
/// their file and line.
#[test]
fn drill_check_refuses_numbers_past_their_bounds_with_exit_code_2() {
    let dir = drill_dir("bounds");
    let head = "[drill]\nname = \"d\"\n";
    let step = "\n[[queues]]\nname = \"q\"\n\n[[method]]\naction = \"send\"\nqueue = \"q\"\n";
    let cases = [
        (
            format!("{head}look_ms = 0\n"),
            "d.toml:3:11: `look_ms` must be from 10 to 60000",
        ),
        (
            format!("{head}{step}count = 1000000000\n"),
            "d.toml:10:9: `count` must be from 1 to 100000",
        ),
        (
            format!("{head}{step}seconds = 9223372036854775807\n"),
            "d.toml:10:11: `seconds` must be from 0 to 2592000",
        ),
    ];
    for (text, expected) in cases {
        std::fs::write(dir.join("d.toml"), &text).unwrap();
        let out = drill_in(&dir, &["check", "d.toml"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{text}: {stderr}");
        assert!(stderr.contains(expected), "{text}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
    // The built-in drills' flags have the same bounds.
    for (args, flag) in [
        (&["trigger", "--poll-ms", "0"][..], "'--poll-ms <POLL_MS>'"),
        (
            &["poison", "--queue", "q", "--batch", "0"][..],
            "'--batch <BATCH>'",
        ),
        (
            &["consumer", "--queue", "q", "--poll-ms", "5"][..],
            "'--poll-ms <POLL_MS>'",
        ),
    ] {
        let out = drill_in(&std::env::temp_dir(), args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
    }
}

/// `drill run NAME` and `drill check NAME`: a shipped drill's bare name is that drill, a path
/// is a file, and a bare name that is both is refused with how to pick each.
#[test]
fn a_name_that_is_both_a_shipped_drill_and_a_file_is_refused() {
    let dir = drill_dir("names");
    std::fs::write(dir.join("poison"), "[drill]\nname = \"mine\"\n").unwrap();
    for command in ["check", "run"] {
        let out = drill_in(&dir, &[command, "poison"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert!(
            stderr.contains(
                "`poison` is both a shipped drill and a file here; write `./poison` for the file"
            ),
            "{command}: {stderr}"
        );
    }
    let file = drill_in(&dir, &["check", "./poison"]);
    assert_eq!(file.status.code(), Some(0), "{file:?}");
    assert!(String::from_utf8_lossy(&file.stdout).contains("./poison: ok"));
    let shipped = drill_in(&std::env::temp_dir(), &["check", "stall"]);
    assert_eq!(shipped.status.code(), Some(0), "{shipped:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
