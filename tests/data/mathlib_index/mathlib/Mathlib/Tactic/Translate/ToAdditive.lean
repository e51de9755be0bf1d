/-! Test dictionaries (a small subset in the format of Mathlib's file). -/
def nameDict : Std.HashMap String (List String) := .ofList [
  ("one", ["Zero"]),
  ("mul", ["Add"]),
  ("inv", ["Neg"]),
  ("prod", ["Sum"])]

def abbreviationDict : Std.HashMap String String := .ofList [
  ("addNeg", "Sub")]
