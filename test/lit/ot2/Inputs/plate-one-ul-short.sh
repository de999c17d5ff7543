#!/bin/sh
# plate, except that the OT-2 protocol it writes dispenses 1 uL less in its
# first dispense: what the corpus sweep must catch (sweep-negative.test).
"$PLATE_UNDER_TEST" "$@" || exit $?
case " $* " in
  *" --platform ot2 "*) ;;
  *) exit 0 ;;
esac
out=
previous=
for arg in "$@"; do
  [ "$previous" = "-o" ] && out=$arg
  previous=$arg
done
sed -i '0,/\.dispense(\([0-9.]*\)/s//.dispense(\1 - 1/' "$out"
