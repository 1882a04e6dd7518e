//! Unit tests of at_least_once.rs.

use super::{rate, DeliverySettings, Dice, Mode, Rates};

fn settings(seed: u64, rates: Rates) -> DeliverySettings {
    DeliverySettings {
        mode: Mode::AtLeastOnce,
        seed,
        rates,
    }
}

fn tosses(dice: &mut Dice) -> Vec<bool> {
    (0..64).map(|_| dice.duplicate()).collect()
}

#[test]
fn the_same_seed_and_name_give_the_same_tosses() {
    let s = settings(7, Rates::default());
    let a = tosses(&mut Dice::new(&s, "orders"));
    assert_eq!(a, tosses(&mut Dice::new(&s, "orders")));
    assert_ne!(a, tosses(&mut Dice::new(&s, "payments")));
    assert_ne!(
        a,
        tosses(&mut Dice::new(&settings(8, Rates::default()), "orders"))
    );
}

#[test]
fn rates_of_zero_and_one_are_never_and_always() {
    let mut dice = Dice::new(&settings(1, Rates::all(0.0)), "q");
    assert!((0..100).all(|_| !dice.duplicate() && !dice.pass_over()));
    assert!((0..100).all(|_| dice.early_end(30_000).is_none() && dice.approximate(5) == 5));
    let mut dice = Dice::new(&settings(1, Rates::all(1.0)), "q");
    assert!((0..100).all(|_| dice.duplicate() && dice.pass_over()));
    assert!((0..100).all(|_| dice.early_end(30_000).is_some_and(|ms| ms < 30_000)));
    assert!((0..100).all(|_| {
        let n = dice.approximate(100);
        n != 100 && (90..=110).contains(&n)
    }));
    assert_eq!(dice.early_end(0), None);
}

#[test]
fn a_rate_is_a_probability_and_a_mode_one_of_two_words() {
    assert!(rate(0.5).is_ok());
    assert!(rate(1.5).unwrap_err().contains("from 0 to 1"));
    assert!(rate(f64::NAN).is_err());
    assert_eq!(Mode::parse("at-least-once"), Ok(Mode::AtLeastOnce));
    assert!(Mode::parse("sometimes").unwrap_err().contains("\"exact\""));
    let mut r = Rates::default();
    *r.get_mut("reorder").unwrap() = 0.25;
    assert_eq!(r.get("reorder"), Some(0.25));
    assert!(Rates::NAMES.iter().all(|n| r.get(n).is_some()));
}
