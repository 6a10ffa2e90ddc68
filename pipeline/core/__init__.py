"""Types every stage hands over (sites, records, explanations) and the errors and progress they share."""
