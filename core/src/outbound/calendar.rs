//! Calendar invitations for assessment visits (RFC 5545 objects sent the RFC 5546 way):
//! METHOD:REQUEST with a stable UID and the visit's SEQUENCE when a visit is booked or
//! moved, METHOD:CANCEL when it is called off. Times are the agency's local times with
//! the zone's VTIMEZONE, so a calendar in another zone still shows the right moment.
//! Escaping and line folding are the `ics` crate's.

use std::borrow::Cow;

use ics::parameters::{CN, PartStat, RSVP, Role};
use ics::properties::{
    Attendee, Description, DtEnd, DtStart, Location, Method, Organizer, Sequence, Status, Summary,
    TzName,
};
use ics::{Daylight, Event, ICalendar, Standard, TimeZone, escape_text};
use jiff::tz::{Offset, TimeZone as Zone};
use jiff::{SignedDuration, Timestamp};

use crate::model::{AssessmentVisit, VisitStatus};

/// What an invitation asks of the calendars that receive it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvitationMethod {
    /// Add or update the event.
    Request,
    /// Remove the event.
    Cancel,
}

impl InvitationMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            InvitationMethod::Request => "REQUEST",
            InvitationMethod::Cancel => "CANCEL",
        }
    }
}

/// A person on the invitation: a display name and an email address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitee {
    pub name: String,
    pub email: String,
}

/// Everything an invitation says besides the visit.
#[derive(Debug, Clone)]
pub struct InvitationFacts<'a> {
    pub method: InvitationMethod,
    pub organizer: &'a Invitee,
    pub attendees: &'a [Invitee],
    pub agency_name: &'a str,
    pub zone: &'a Zone,
    /// DTSTAMP: when this version of the invitation was made.
    pub now: Timestamp,
}

/// The event's UID: the visit's id, the same in every invitation for it.
pub fn visit_uid(visit: &AssessmentVisit) -> String {
    format!("{}@carepath", visit.id)
}

fn utc_stamp(moment: Timestamp) -> String {
    moment.strftime("%Y%m%dT%H%M%SZ").to_string()
}

fn local_stamp(moment: Timestamp, zone: &Zone) -> String {
    moment
        .to_zoned(zone.clone())
        .strftime("%Y%m%dT%H%M%S")
        .to_string()
}

/// "+0100", "-0500", "+0530" (seconds, which no zone in use has, are dropped).
fn offset_text(offset: Offset) -> String {
    let seconds = offset.seconds();
    let sign = if seconds < 0 { '-' } else { '+' };
    let minutes = seconds.abs() / 60;
    format!("{sign}{:02}{:02}", minutes / 60, minutes % 60)
}

/// A parameter value: quoted, since names may hold commas, colons and semicolons; a
/// quote or a control character cannot be in a parameter at all, so it is dropped.
fn param_text(text: &str) -> String {
    let clean: String = text
        .chars()
        .filter(|c| *c != '"' && !c.is_control())
        .collect();
    format!("\"{}\"", clean.trim())
}

/// The zone's observances around the visits: for each, the change of offset in force
/// when it starts and the next one, so a receiving calendar converts the times as the
/// agency meant them. A zone without changes (UTC) has one standard observance.
fn vtimezone<'a>(tzid: &'a str, zone: &Zone, starts: &[Timestamp]) -> TimeZone<'a> {
    let mut onsets: Vec<Timestamp> = Vec::new();
    let mut observances: Vec<(bool, Standard<'a>, Daylight<'a>)> = Vec::new();
    // The offset changes around the last start looked up: a start between the same two
    // changes needs no lookup of its own (a feed's thousand visits fall between a few).
    let mut known: Option<(Option<Timestamp>, Option<Timestamp>)> = None;
    for start in starts {
        if let Some((before, after)) = known
            && before.is_none_or(|onset| onset <= *start)
            && after.is_none_or(|onset| *start < onset)
        {
            continue;
        }
        let preceding = zone
            .preceding(
                start
                    .checked_add(SignedDuration::from_secs(1))
                    .unwrap_or(*start),
            )
            .next();
        let following = zone.following(*start).next();
        known = Some((
            preceding.as_ref().map(|t| t.timestamp()),
            following.as_ref().map(|t| t.timestamp()),
        ));
        for transition in preceding.into_iter().chain(following) {
            let onset = transition.timestamp();
            if onsets.contains(&onset) {
                continue;
            }
            onsets.push(onset);
            let before = zone.to_offset(
                onset
                    .checked_sub(SignedDuration::from_secs(1))
                    .unwrap_or(onset),
            );
            let after = transition.offset();
            // DTSTART is the onset as a local time in the offset it replaces.
            let local = onset
                .to_zoned(Zone::fixed(before))
                .strftime("%Y%m%dT%H%M%S")
                .to_string();
            let name = transition.abbreviation().to_owned();
            let mut standard =
                Standard::new(local.clone(), offset_text(before), offset_text(after));
            let mut daylight = Daylight::new(local, offset_text(before), offset_text(after));
            standard.push(TzName::new(name.clone()));
            daylight.push(TzName::new(name));
            observances.push((transition.dst().is_dst(), standard, daylight));
        }
    }
    let mut observances = observances.into_iter();
    let mut timezone = match observances.next() {
        Some((true, _, daylight)) => TimeZone::daylight(tzid, daylight),
        Some((false, standard, _)) => TimeZone::standard(tzid, standard),
        None => {
            let offset = offset_text(zone.to_offset(starts.first().copied().unwrap_or_default()));
            TimeZone::standard(
                tzid,
                Standard::new("19700101T000000", offset.clone(), offset),
            )
        }
    };
    for (dst, standard, daylight) in observances {
        if dst {
            timezone.add_daylight(daylight);
        } else {
            timezone.add_standard(standard);
        }
    }
    timezone
}

fn person<'a>(invitee: &Invitee) -> (String, Cow<'a, str>) {
    (
        format!("mailto:{}", invitee.email.trim()),
        Cow::Owned(param_text(&invitee.name)),
    )
}

/// The invitation's text (CRLF lines, folded at 75 octets).
pub fn visit_invitation(visit: &AssessmentVisit, facts: &InvitationFacts<'_>) -> String {
    let tzid = facts.zone.iana_name().map(str::to_owned);
    let mut calendar = ICalendar::new("2.0", "-//Carepath//Assessment visits//EN");
    calendar.push(Method::new(facts.method.as_str()));
    let start: Timestamp = visit.starts_at.parse().unwrap_or(facts.now);
    if let Some(tzid) = tzid.as_deref() {
        calendar.add_timezone(vtimezone(tzid, facts.zone, &[start]));
    }
    let stamp = utc_stamp(facts.now);
    calendar.add_event(visit_event(visit, facts, tzid.as_deref(), start, &stamp));
    calendar.to_string()
}

/// A member of staff's calendar feed (METHOD:PUBLISH): every visit given, a cancelled one
/// marked CANCELLED, with the same UIDs as the invitations, so a calendar that has both
/// shows each visit once.
pub fn visits_feed(
    visits: &[AssessmentVisit],
    agency_name: &str,
    zone: &Zone,
    now: Timestamp,
) -> String {
    let tzid = zone.iana_name().map(str::to_owned);
    let mut calendar = ICalendar::new("2.0", "-//Carepath//Assessment visits//EN");
    calendar.push(Method::new("PUBLISH"));
    calendar.push(ics::properties::Name::new(escape_text(format!(
        "{agency_name} assessment visits"
    ))));
    // Each start is read once, for the zone's observances and for its event.
    let parsed: Vec<Option<Timestamp>> = visits
        .iter()
        .map(|visit| visit.starts_at.parse().ok())
        .collect();
    let starts: Vec<Timestamp> = parsed.iter().flatten().copied().collect();
    if let Some(tzid) = tzid.as_deref()
        && !starts.is_empty()
    {
        calendar.add_timezone(vtimezone(tzid, zone, &starts));
    }
    let organizer = Invitee {
        name: agency_name.to_owned(),
        email: String::new(),
    };
    let stamp = utc_stamp(now);
    for (visit, start) in visits.iter().zip(parsed) {
        let method = if visit.status == VisitStatus::Cancelled {
            InvitationMethod::Cancel
        } else {
            InvitationMethod::Request
        };
        let facts = InvitationFacts {
            method,
            organizer: &organizer,
            attendees: &[],
            agency_name,
            zone,
            now,
        };
        calendar.add_event(visit_event(
            visit,
            &facts,
            tzid.as_deref(),
            start.unwrap_or(now),
            &stamp,
        ));
    }
    calendar.to_string()
}

/// One visit's event; `start` is the visit's start as read, `stamp` the DTSTAMP text.
fn visit_event<'a>(
    visit: &AssessmentVisit,
    facts: &InvitationFacts<'_>,
    tzid: Option<&str>,
    start: Timestamp,
    stamp: &str,
) -> Event<'a> {
    let end: Timestamp = visit.ends_at.parse().unwrap_or(start);

    let mut event = Event::new(visit_uid(visit), stamp.to_owned());
    event.push(Sequence::new(visit.sequence.max(0).to_string()));
    match tzid {
        Some(tzid) => {
            let mut dtstart = DtStart::new(local_stamp(start, facts.zone));
            dtstart.add(ics::parameters::TzIDParam::new(tzid.to_owned()));
            let mut dtend = DtEnd::new(local_stamp(end, facts.zone));
            dtend.add(ics::parameters::TzIDParam::new(tzid.to_owned()));
            event.push(dtstart);
            event.push(dtend);
        }
        // A zone without a name cannot be referred to: the times go in UTC.
        None => {
            event.push(DtStart::new(utc_stamp(start)));
            event.push(DtEnd::new(utc_stamp(end)));
        }
    }
    event.push(Summary::new(escape_text(format!(
        "Home assessment visit: {}",
        visit.client_name
    ))));
    event.push(Location::new(escape_text(visit.place.clone())));
    let mut description = format!(
        "{} home assessment for {} with {}.",
        facts.agency_name, visit.client_name, visit.assessor_name
    );
    if let Some(notes) = visit.notes.as_deref().filter(|n| !n.trim().is_empty()) {
        description.push_str("\n\n");
        description.push_str(notes);
    }
    if let Some(reason) = visit.cancel_reason.as_deref() {
        description.push_str("\n\nCancelled: ");
        description.push_str(reason);
    }
    event.push(Description::new(escape_text(description)));
    event.push(match facts.method {
        InvitationMethod::Request => Status::confirmed(),
        InvitationMethod::Cancel => Status::cancelled(),
    });
    if !facts.organizer.email.trim().is_empty() {
        let (address, name) = person(facts.organizer);
        let mut organizer = Organizer::new(address);
        organizer.add(CN::new(name));
        event.push(organizer);
    }
    for invitee in facts.attendees {
        let (address, name) = person(invitee);
        let mut attendee = Attendee::new(address);
        attendee.add(CN::new(name));
        attendee.add(Role::REQ_PARTICIPANT);
        attendee.add(PartStat::NEEDS_ACTION);
        attendee.add(RSVP::False);
        event.push(attendee);
    }
    event
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A year of visits every other day names each offset change around them once: the
    /// one in force at the first visit and each one after, as a lookup per visit would.
    #[test]
    fn a_year_of_visits_names_each_offset_change_around_them_once() {
        let zone = Zone::get("America/New_York").unwrap();
        let first: Timestamp = "2026-11-23T15:00:00Z".parse().unwrap();
        let starts: Vec<Timestamp> = (0..200)
            .map(|day| first + SignedDuration::from_hours(48 * day))
            .collect();
        let mut expected: Vec<Timestamp> = Vec::new();
        for start in &starts {
            let around = zone
                .preceding(*start + SignedDuration::from_secs(1))
                .take(1)
                .chain(zone.following(*start).take(1));
            for transition in around {
                if !expected.contains(&transition.timestamp()) {
                    expected.push(transition.timestamp());
                }
            }
        }
        // November 2026, March and November 2027, and March 2028 after the last visit.
        assert_eq!(expected.len(), 4);
        let text = vtimezone("America/New_York", &zone, &starts).to_string();
        let observances =
            text.matches("BEGIN:STANDARD").count() + text.matches("BEGIN:DAYLIGHT").count();
        assert_eq!(observances, expected.len(), "{text}");
        for onset in expected {
            let before = zone.to_offset(onset - SignedDuration::from_secs(1));
            let local = onset
                .to_zoned(Zone::fixed(before))
                .strftime("%Y%m%dT%H%M%S")
                .to_string();
            assert!(
                text.contains(&format!("DTSTART:{local}")),
                "{local}: {text}"
            );
        }
        let utc = vtimezone("UTC", &Zone::UTC, &starts).to_string();
        assert_eq!(utc.matches("BEGIN:STANDARD").count(), 1, "{utc}");
    }
}
