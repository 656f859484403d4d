  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
#  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
!  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
v  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
#  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
S  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
g  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
k  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
,  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
:  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
g  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
#  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
y  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
v  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
,  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
`  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
g  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
g  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
`  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
.  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
#  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
U  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
g  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
:  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
.  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
[  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
B  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
U  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
I  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
L  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
D  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
_  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
D  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
I  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
R  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
]  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
:  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
;  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
g  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
g  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
=  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
.  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
.  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
&  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
&  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
w  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
=  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
{  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
:  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
}  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
[  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
!  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
x  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
_  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
]  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
|  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
|  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
[  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
!  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
x  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
]  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
;  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
k  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
S  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
B  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
D  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
C  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
M  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
A  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
K  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
E  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
_  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
B  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
U  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
I  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
L  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
D  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
_  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
T  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
Y  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
P  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
E  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
=  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
R  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
>  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
v  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
k  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
g  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
_  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
>  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
v  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
=  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
=  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
:  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
,  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
,  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
g  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
'  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
'  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
|  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
:  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
2  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
|  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
'  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
^  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
*  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
'  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
=  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
=  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
_  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
=  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
=  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
:  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
g  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
g  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
C  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
j  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
>  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
v  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
w  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
,  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
'  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
%  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
4  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
%  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
%  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
%  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
\  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
'  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
C  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
9  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
C  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
8  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
2  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
2  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
2  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
2  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
4  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
;  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
=  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
_  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
q  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
;  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
=  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
+  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
%  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
%  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
N  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
g  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
g  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
C  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
j  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
>  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
v  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
u  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
2  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
>  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
&  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
=  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
a  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
+  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
%  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
%  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
N  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
+  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
=  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
=  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
'  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
%  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
\  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
'  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
{  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
m  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
[  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
@  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
]  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
}  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
|  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
p  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
i  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
'  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
%  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
4  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
%  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
.  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
2  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
%  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
.  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
2  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
%  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
.  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
2  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
f  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
\  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
'  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
C  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
\  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
{  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
[  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
4  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
9  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
]  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
}  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
|  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
{  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
[  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
9  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
]  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
}  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
|  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
\  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
(  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
h  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
$  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
{  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
s  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
r  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
t  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
[  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
8  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
9  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
]  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
}  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
/  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
1  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
0  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
|  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
b  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
c  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
   printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
-  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
l  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
)  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
"  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
d  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
o  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
n  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
e  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'

  printf '%s\n' "${times[@]}" | sort -n | awk -v c="$C" '{ v[NR] = $1 }
    END { printf "%-14s %10.2f %10.2f %10.2f\n", c, v[50] / 1000, v[10] / 1000, v[90] / 1000 }'
