//! The closed-form riffle law of `exact riffles:K` in JSON (how it reads in the terminal
//! is [`crate::output::text::exact_riffles`]): the method, the most and least likely
//! class of orders with their ratios to uniform (as logarithms, and as numbers where a
//! double holds them), the share of orders never dealt, and the law of rising sequences
//! beside a fair deck's. Written as fields of the result's object, line by line, as the
//! rest of [`super::exact`] is.

use std::io::Write;

use serde::Serialize;

use crate::exact::RiffleLaw;
use crate::stats::eulerian::rising_sequence_law;

/// A class of orders, in the JSON.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(super) struct Class {
    rising_sequences: usize,
    /// `ln(n! · P)`: finite for every possible order.
    ln_ratio_to_uniform: f64,
    /// The same as a number, `null` where it would overflow a double.
    ratio_to_uniform: Option<f64>,
    ln_probability: f64,
    ln_orders: f64,
}

/// One value of `r`, in the JSON.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(super) struct RisingSequences {
    rising_sequences: usize,
    probability: f64,
    fair: f64,
}

/// The JSON fields of one riffle law, each on its own line, the last without a comma (the
/// caller closes the object).
pub(crate) fn write_json(out: &mut dyn Write, law: &RiffleLaw) -> std::io::Result<()> {
    let class = |class: &crate::exact::riffles::RiffleOrderClass| Class {
        rising_sequences: class.rising_sequences,
        ln_ratio_to_uniform: class.ln_ratio_to_uniform,
        ratio_to_uniform: Some(class.ln_ratio_to_uniform.exp()).filter(|ratio| ratio.is_finite()),
        ln_probability: class.ln_probability,
        ln_orders: class.ln_orders,
    };
    writeln!(out, "      \"method\": {},", json(&crate::exact::riffles::METHOD))?;
    writeln!(out, "      \"riffles\": {},", law.riffles)?;
    writeln!(out, "      \"total_variation\": {},", law.total_variation)?;
    writeln!(out, "      \"most_likely\": {},", json(&class(&law.most_likely)))?;
    writeln!(
        out,
        "      \"least_likely\": {},",
        json(&class(&law.least_likely))
    )?;
    writeln!(out, "      \"impossible_share\": {},", law.impossible_share)?;
    let fair = rising_sequence_law(law.n);
    writeln!(out, "      \"rising_sequence_law\": [")?;
    for (r, (&probability, &fair)) in law.rising_sequence_law.iter().zip(&fair).enumerate().skip(1) {
        let row = RisingSequences {
            rising_sequences: r,
            probability,
            fair,
        };
        let comma = if r < law.n { "," } else { "" };
        writeln!(out, "        {}{comma}", json(&row))?;
    }
    writeln!(out, "      ]")
}

/// One line of JSON.
fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("plain data serialises")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::riffle_law;

    /// The JSON fields of `law`, in an object.
    fn json_object(law: &RiffleLaw) -> serde_json::Value {
        let mut json = Vec::new();
        write_json(&mut json, law).unwrap();
        let text = String::from_utf8(json).unwrap();
        serde_json::from_str(&format!("{{{text}}}")).unwrap()
    }

    #[test]
    fn a_ratio_past_a_double_is_null_beside_its_logarithm() {
        let object = json_object(&riffle_law(52, 1).unwrap());
        assert_eq!(object["riffles"], 1);
        // 52!/2^52 overflows nothing, but a 2,000-card riffle would: the ratio is then null.
        assert!(object["most_likely"]["ratio_to_uniform"].is_number());
        assert_eq!(object["rising_sequence_law"].as_array().unwrap().len(), 52);
        let object = json_object(&riffle_law(2000, 1).unwrap());
        assert!(object["most_likely"]["ratio_to_uniform"].is_null());
        assert!(object["most_likely"]["ln_ratio_to_uniform"].as_f64().unwrap() > 700.0);
    }
}
