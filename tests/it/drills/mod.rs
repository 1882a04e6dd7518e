//! Game days (src/drill, src/faults, the admin API's clock): the built-in drills, drills
//! written as files, fault rules and their targets, and the manual clock's control.

mod at_least_once;
mod bounds;
mod builtin;
mod fault_targets;
mod files;
mod first_poll;
mod game_day;
mod manual_clock;
mod uploads;
mod verdicts;
