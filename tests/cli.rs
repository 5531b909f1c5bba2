//! The binary's command line: `--help` names every command and setting, `--version` the
//! package's version, and a wrong command is refused with a usage error.

use std::process::Command;

fn luddo(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_luddo")).args(args).output().expect("the luddo binary runs")
}

#[test]
fn help_lists_every_command_and_setting() {
    let out = luddo(&["--help"]);
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for command in ["serve", "healthcheck", "verify"] {
        assert!(help.contains(command), "--help lacks {command}:\n{help}");
    }
    for variable in luddo::config::VARIABLES {
        assert!(help.contains(variable), "--help lacks {variable}:\n{help}");
    }
    assert!(luddo(&["verify", "--help"]).status.success());
}

#[test]
fn version_is_the_packages() {
    let out = luddo(&["--version"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), format!("luddo {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn a_wrong_command_is_a_usage_error() {
    let out = luddo(&["serv"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("serve"), "the error suggests the command meant:\n{err}");
    assert_eq!(luddo(&["verify"]).status.code(), Some(2), "verify needs a source");
}
