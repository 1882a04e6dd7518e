//! The alarms' series in the exposition: one gauge per alarm, read from [`crate::observe::alarms`].

use std::fmt;

use super::escape;
use crate::observe::alarms::render::name_parts;
use crate::observe::alarms::Alarm;

/// `sqslite_alarm_firing{alarm,kind,queue}`, 1 in ALARM and 0 when OK, as Prometheus text;
/// nothing when there are no alarms.
pub fn write_metric(alarms: &[Alarm], out: &mut impl fmt::Write) -> fmt::Result {
    if alarms.is_empty() {
        return Ok(());
    }
    out.write_str(
        "# HELP sqslite_alarm_firing 1 while the alarm is in ALARM state\n\
         # TYPE sqslite_alarm_firing gauge\n",
    )?;
    for a in alarms {
        out.write_str("sqslite_alarm_firing{alarm=\"")?;
        for part in name_parts(a) {
            out.write_str(&escape(part))?;
        }
        out.write_str("\",kind=\"")?;
        out.write_str(a.kind().as_str())?;
        out.write_str("\",queue=\"")?;
        out.write_str(&escape(&a.queue().key.name))?;
        out.write_str(if a.firing() { "\"} 1\n" } else { "\"} 0\n" })?;
    }
    Ok(())
}
