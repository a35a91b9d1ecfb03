//! An enumeration's figures as the report, the JSON and one-row CSV summaries and the
//! histogram CSV. Every count is exact; each mean is also given as its exact sum and count.

use std::io::{self, Write};

use serde_json::{Map, Value, json};

use super::{Plan, Tally};
use crate::engine::{WinBy, hand};
use crate::export::text::{counted, decided_by, escape_controls, group, percent_of};
use crate::export::{Target, rule_fields};

/// A deal as the hands it cuts into, `2 1 3 | 2 3 3`.
pub fn hands(deal: &[u8], players: usize) -> String {
    (0..players)
        .map(|seat| {
            deal[hand(deal.len(), players, seat)]
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// A position (piles ended by 0) as hands, `3 2 1 | 2 1 3`.
fn position_hands(position: &[u8]) -> String {
    let piles: Vec<String> = position
        .split(|&c| c == 0)
        .take(position.iter().filter(|&&c| c == 0).count())
        .map(|pile| pile.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
        .collect();
    piles.join(" | ")
}

fn mean(sum: u128, count: u64) -> Value {
    match count {
        0 => Value::Null,
        n => json!(sum as f64 / n as f64),
    }
}

/// The figures as one ordered JSON object: scalars first, then the cycles.
pub fn summary(plan: &Plan, tally: &Tally) -> Map<String, Value> {
    let rules = &plan.rules;
    let players = rules.players as usize;
    let finite = tally.finite();
    // The rules as `warsim run --summary` names them, a setting a column: the description
    // with its × and → is for the report, since a spreadsheet may not read it as UTF-8.
    let mut m: Map<String, Value> = rule_fields(rules)
        .into_iter()
        .map(|(key, figure)| (key, json!(figure)))
        .collect();
    m.insert("deal_set".into(), json!(plan.set.name()));
    m.insert("deals".into(), json!(tally.deals));
    let wins: u64 = tally.wins.iter().sum();
    m.insert("win".into(), json!(wins));
    m.insert("draw".into(), json!(tally.draws));
    m.insert("cycle".into(), json!(tally.cycled));
    m.insert("capped".into(), json!(tally.capped));
    for (by, n) in WinBy::ALL.iter().zip(tally.win_by) {
        m.insert(format!("win_by_{}", by.name()), json!(n));
    }
    for (seat, n) in tally.wins.iter().enumerate() {
        m.insert(format!("seat{}_wins", seat + 1), json!(n));
    }
    m.insert("finite".into(), json!(finite));
    m.insert("rounds_sum".into(), json!(tally.rounds_sum() as u64));
    m.insert("rounds_mean".into(), mean(tally.rounds_sum(), finite));
    m.insert("rounds_sd".into(), json!(tally.rounds_sd()));
    let nonzero = |counts: &[u64]| counts.iter().position(|&n| n > 0);
    m.insert("rounds_min".into(), json!(nonzero(&tally.rounds)));
    m.insert(
        "rounds_max".into(),
        json!(tally.longest.as_ref().map(|l| l.rounds)),
    );
    m.insert("cards_played_sum".into(), json!(tally.cards_sum() as u64));
    m.insert("cards_played_mean".into(), mean(tally.cards_sum(), finite));
    m.insert("cards_played_sd".into(), json!(tally.cards_sd()));
    m.insert(
        "cards_per_player_mean".into(),
        mean(tally.cards_sum(), finite * players as u64),
    );
    m.insert("wars_sum".into(), json!(tally.wars_sum() as u64));
    m.insert("wars_mean".into(), mean(tally.wars_sum(), finite));
    m.insert("wars_sd".into(), json!(tally.wars_sd()));
    let longest = tally.longest.as_ref();
    m.insert(
        "longest_cards_played".into(),
        json!(longest.map(|l| l.cards_played)),
    );
    m.insert(
        "longest_deal".into(),
        json!(longest.map(|l| hands(&l.deal, players))),
    );
    let by_cards = tally.longest_by_cards.as_ref();
    m.insert(
        "cards_played_max".into(),
        json!(by_cards.map(|l| l.cards_played)),
    );
    m.insert(
        "cards_played_max_rounds".into(),
        json!(by_cards.map(|l| l.rounds)),
    );
    m.insert(
        "cards_played_max_deal".into(),
        json!(by_cards.map(|l| hands(&l.deal, players))),
    );
    m.insert("cycles_distinct".into(), json!(tally.cycles.len()));
    m.insert(
        "cycles_distinct_up_to_mirror".into(),
        match players {
            2 => json!(tally.cycles_up_to_mirror()),
            _ => Value::Null,
        },
    );
    let periods: Vec<String> = tally
        .cycles
        .values()
        .map(|c| c.period.to_string())
        .collect();
    m.insert("cycle_periods".into(), json!(periods.join(" ")));
    let cycles: Vec<Value> = tally
        .cycles
        .iter()
        .map(|(least, c)| json!({"period": c.period, "deals": c.deals, "position": position_hands(least)}))
        .collect();
    m.insert("cycles".into(), Value::Array(cycles));
    m
}

/// Writes the summary as pretty JSON and a newline.
pub fn write_json(out: &mut dyn Write, summary: &Map<String, Value>) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, summary)?;
    writeln!(out)?;
    out.flush()
}

/// Writes the summary's scalars as a header and one CSV row (the cycles' list left out).
pub fn write_csv(out: &mut dyn Write, summary: &Map<String, Value>) -> io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    let scalars: Vec<(&String, &Value)> = summary.iter().filter(|(_, v)| !v.is_array()).collect();
    csv.write_record(scalars.iter().map(|(k, _)| k.as_str()))?;
    csv.write_record(scalars.iter().map(|(_, v)| match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }))?;
    csv.flush()
}

/// Writes the distributions of the finite games' rounds and cards laid, exact:
/// `measure,value,deals,share,cumulative,survival`, each share over every deal played, as
/// `warsim run --histogram` shares its lengths over every game (looping deals never end: the
/// last row's survival is their share).
pub fn write_histogram(out: &mut dyn Write, tally: &Tally) -> io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record([
        "measure",
        "value",
        "deals",
        "share",
        "cumulative",
        "survival",
    ])?;
    let deals = tally.deals.max(1) as f64;
    for (measure, counts) in [("rounds", &tally.rounds), ("cards_played", &tally.cards)] {
        let mut ended = 0;
        for (value, &n) in counts.iter().enumerate().filter(|(_, n)| **n > 0) {
            ended += n;
            csv.write_record([
                measure.to_string(),
                value.to_string(),
                n.to_string(),
                format!("{:.9}", n as f64 / deals),
                format!("{:.9}", ended as f64 / deals),
                format!("{:.9}", (tally.deals - ended) as f64 / deals),
            ])?;
        }
    }
    csv.flush()
}

/// Writes the readable report.
pub fn write_report(
    out: &mut dyn Write,
    plan: &Plan,
    tally: &Tally,
    seconds: f64,
    threads: usize,
) -> io::Result<()> {
    let players = plan.rules.players as usize;
    let pct = |n: u64| percent_of(n, tally.deals, 4);
    let finite = tally.finite();
    writeln!(out, "rules        {}", plan.rules.describe())?;
    writeln!(
        out,
        "deals        {} ({}; every deal played once, suits ignored)",
        group(tally.deals),
        match plan.set.name() {
            "all" => "all: every sequence of ranks".to_string(),
            name => format!("{name} of {} sequences", group(plan.sequences as u64)),
        }
    )?;
    let wins: u64 = tally.wins.iter().sum();
    writeln!(
        out,
        "outcomes     win {} ({})   draw {} ({})   cycle {} ({})   capped {} ({})",
        group(wins),
        pct(wins),
        group(tally.draws),
        pct(tally.draws),
        group(tally.cycled),
        pct(tally.cycled),
        group(tally.capped),
        pct(tally.capped)
    )?;
    let wins_by = |by: WinBy| tally.win_by[by as usize];
    let share = |name: &str, n: u64| format!("{name} {} ({})", group(n), pct(n));
    if let Some(line) = decided_by(wins_by, share) {
        writeln!(out, "{line}")?;
    }
    for (seat, &n) in tally.wins.iter().enumerate() {
        let lead = if seat == 0 { "wins by seat" } else { "" };
        writeln!(
            out,
            "{lead:<12} seat {}  {} ({})",
            seat + 1,
            group(n),
            pct(n)
        )?;
    }
    if let Some(longest) = &tally.longest {
        let cards = tally.cards_sum();
        writeln!(
            out,
            "rounds       {}   min {}   max {}   ({})",
            exact_mean(tally.rounds_sum(), finite, tally.rounds_sd()),
            tally.rounds.iter().position(|&n| n > 0).unwrap_or(0),
            longest.rounds,
            counted(finite, "finite game")
        )?;
        writeln!(
            out,
            "cards        mean {:.4} laid per finite game, {:.4} per player (exactly {} / {})",
            cards as f64 / finite as f64,
            cards as f64 / (finite * players as u64) as f64,
            cards,
            finite * players as u64
        )?;
        writeln!(
            out,
            "wars         {}   per finite game",
            exact_mean(tally.wars_sum(), finite, tally.wars_sd())
        )?;
        writeln!(
            out,
            "longest      {}, {} laid: {}",
            counted(longest.rounds, "round"),
            counted(longest.cards_played, "card"),
            hands(&longest.deal, players)
        )?;
    }
    if let Some(most) = &tally.longest_by_cards {
        // Whole per player when the players share the cards evenly, else to 4 places as the
        // means are (three players: 21.3333, not 21.333333333333332).
        let players_u64 = players as u64;
        let each = match most.cards_played % players_u64 {
            0 => (most.cards_played / players_u64).to_string(),
            _ => format!("{:.4}", most.cards_played as f64 / players as f64),
        };
        writeln!(
            out,
            "most cards   {} laid ({each} per player), {}: {}",
            most.cards_played,
            counted(most.rounds, "round"),
            hands(&most.deal, players)
        )?;
    }
    let periods: Vec<String> = tally
        .cycles
        .values()
        .map(|c| c.period.to_string())
        .collect();
    write!(out, "cycles       {} distinct", tally.cycles.len())?;
    if players == 2 {
        write!(
            out,
            " ({} up to exchanging the hands)",
            tally.cycles_up_to_mirror()
        )?;
    }
    match periods.len() {
        0 => writeln!(out)?,
        1..=12 => writeln!(out, "; periods {}", periods.join(", "))?,
        _ => writeln!(out, "; periods in --json")?,
    }
    writeln!(
        out,
        "time         {seconds:.3} s   {} deals/s on {threads} thread{}",
        group((tally.deals as f64 / seconds.max(1e-9)) as u64),
        if threads == 1 { "" } else { "s" }
    )
}

/// `mean M (exactly SUM / N)   sd SD`: a mean over the finite games, with its exact fraction.
fn exact_mean(sum: u128, finite: u64, sd: Option<f64>) -> String {
    format!(
        "mean {:.4} (exactly {sum} / {finite})   sd {:.4}",
        sum as f64 / finite as f64,
        sd.unwrap_or(0.0)
    )
}

/// "sequences 100 to 199": sequences `first` to `end − 1`, grouped; none when there are none.
pub fn sequence_span(first: u64, end: u64) -> Option<String> {
    (first < end).then(|| format!("sequences {} to {}", group(first), group(end - 1)))
}

/// What a part of an enumeration (`--shard`) says instead of the deck's figures: its rules,
/// the sequences it played, and where their counts went.
pub fn write_part(
    out: &mut dyn Write,
    plan: &Plan,
    tally: &Tally,
    state: &Target,
) -> io::Result<()> {
    writeln!(out, "rules        {}", plan.rules.describe())?;
    let sequences = group(plan.sequences as u64);
    let part = match sequence_span(plan.part.start as u64, plan.part.end as u64) {
        None => format!("none of the {sequences} sequences"),
        Some(span) => format!("{span} of {sequences}"),
    };
    let deals = counted(tally.deals, "deal");
    writeln!(
        out,
        "part         {part} (--deals {}): {deals} played",
        plan.set
    )?;
    // One line whatever the path holds, as every message is.
    let state = escape_controls(&state.to_string());
    writeln!(
        out,
        "state        {state}: their exact counts; `warsim merge` every part's state for the deck's figures"
    )
}
