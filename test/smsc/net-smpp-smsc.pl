#!/usr/bin/perl
# A small SMSC for Herald's tests, built on Debian's libnet-smpp-perl (an SMPP implementation
# independent of the `smpp` npm package Herald uses). One connection at a time; when it drops the
# next is accepted, so rebinds can be tested.
#
#   perl net-smpp-smsc.pl SYSTEM_ID PASSWORD
#
# Prints "LISTENING <port>" once ready, then one line per event on stdout:
#   BIND <system_id> <status>
#   SUBMIT <dest> <src_ton> <src_npi> <src> <esm_class> <data_coding> <registered_delivery> <hex short_message> <status> <message_id>
#   RECEIPT <message_id> <stat>
#   DELIVER_RESP <status> <seq>
#   DROP <dest>
#   DELIVERED <seq>
# Commands on stdin, one a line, carried out on the bound connection:
#   DELIVER <src_ton> <src> <dest_ton> <dest> <esm_class> <data_coding> <hex short_message, or - for none> [<tlv name>=<hex value> ...]
# sends a deliver_sm (a recipient's message) and prints "DELIVERED <seq>"; its answer comes as
# DELIVER_RESP with the same seq.
# Behaviour by destination number: ending in 7, the first submit to it is answered
# ESME_RTHROTTLED; ending in 9, the first submit to it is not answered and the connection is
# dropped (with whatever PDUs followed it unread); ending in 0, the receipt says UNDELIV;
# otherwise DELIVRD. Message ids are hex;
# receipts quote them in decimal (an SMSC habit Herald must tolerate).
use strict;
use warnings;
use Net::SMPP;
use IO::Select;

$| = 1;
my ($system_id, $password) = @ARGV;
my $listener = Net::SMPP->new_listen('127.0.0.1', port => 0, smpp_version => 0x34)
  or die "cannot listen: $!";
print 'LISTENING ' . $listener->sockport . "\n";

my $next_id = 0xA000;
my %throttled;

# stdin is read with sysread into a buffer of our own: a buffered <STDIN> could hold lines select
# no longer sees. Net::SMPP reads the connection with sysread too, so select sees all of it.
my $stdin_buffer = '';
my $stdin_open = 1;

# Carries out the complete command lines read so far on connection $c.
sub run_commands {
    my ($c) = @_;
    while ($stdin_buffer =~ s/^([^\n]*)\n//) {
        my ($command, @fields) = split ' ', $1;
        next unless defined $command && $command eq 'DELIVER';
        my ($src_ton, $src, $dest_ton, $dest, $esm, $coding, $hex, @tlvs) = @fields;
        my $seq = $c->deliver_sm(
            source_addr_ton => $src_ton, source_addr_npi => 1, source_addr => $src,
            dest_addr_ton => $dest_ton, dest_addr_npi => 1, destination_addr => $dest,
            esm_class => $esm, data_coding => $coding, short_message => ($hex eq '-' ? '' : pack('H*', $hex)),
            (map { my ($name, $value) = split /=/, $_, 2; ($name => pack('H*', $value)) } @tlvs),
            async => 1,
        );
        print "DELIVERED $seq\n";
    }
}

while (1) {
    my $c = $listener->accept or next;
    my $select = IO::Select->new($c);
    $select->add(\*STDIN) if $stdin_open;
    while (1) {
        my @ready = $select->can_read;
        if (grep { $_ == \*STDIN } @ready) {
            my $n = sysread(STDIN, $stdin_buffer, 4096, length $stdin_buffer);
            if (!$n) {
                $select->remove(\*STDIN);
                $stdin_open = 0;
            }
            run_commands($c);
        }
        next unless grep { $_ == $c } @ready;
        my $pdu = $c->read_pdu() or last;
        my $cmd = $pdu->{cmd};
        if ($cmd == 0x00000009) {    # bind_transceiver
            my $ok = $pdu->{system_id} eq $system_id && $pdu->{password} eq $password;
            my $status = $ok ? 0 : 0x0E;    # ESME_RINVPASWD
            print "BIND $pdu->{system_id} $status\n";
            $c->bind_transceiver_resp(system_id => 'NETSMPP', seq => $pdu->{seq}, status => $status);
            last unless $ok;
        } elsif ($cmd == 0x00000015) {    # enquire_link
            $c->enquire_link_resp(seq => $pdu->{seq});
        } elsif ($cmd == 0x00000006) {    # unbind
            $c->unbind_resp(seq => $pdu->{seq});
            last;
        } elsif ($cmd == 0x80000005) {    # deliver_sm_resp
            print "DELIVER_RESP $pdu->{status} $pdu->{seq}\n";
        } elsif ($cmd == 0x00000004) {    # submit_sm
            my $dest = $pdu->{destination_addr};
            if ($dest =~ /9$/ && !$throttled{"drop $dest"}++) {
                print "DROP $dest\n";
                # Half-close: every answer already written still reaches the client (a close with
                # unread input would send a reset, which may discard them), then drain until it
                # hangs up. Nothing more is answered.
                shutdown($c, 1);
                while ($c->read_pdu()) { }
                last;
            }
            my $status = 0;
            my $id = '';
            if ($dest =~ /7$/ && !$throttled{$dest}++) {
                $status = 0x58;    # ESME_RTHROTTLED
            } else {
                $id = sprintf('%X', $next_id++);
            }
            printf "SUBMIT %s %d %d %s %d %d %d %s %d %s\n", $dest, $pdu->{source_addr_ton}, $pdu->{source_addr_npi},
              ($pdu->{source_addr} eq '' ? '-' : $pdu->{source_addr}), $pdu->{esm_class}, $pdu->{data_coding},
              $pdu->{registered_delivery}, unpack('H*', $pdu->{short_message}), $status, ($id eq '' ? '-' : $id);
            $c->submit_sm_resp(message_id => $id, seq => $pdu->{seq}, status => $status);
            next if $status != 0;
            my $stat = $dest =~ /0$/ ? 'UNDELIV' : 'DELIVRD';
            my $err = $stat eq 'DELIVRD' ? '000' : '001';
            my $text = sprintf('id:%d sub:001 dlvrd:%s submit date:2611211200 done date:2611211201 stat:%s err:%s text:',
              hex($id), ($stat eq 'DELIVRD' ? '001' : '000'), $stat, $err);
            $c->deliver_sm(
                source_addr_ton => 1, source_addr_npi => 1, source_addr => $dest,
                dest_addr_ton => 5, dest_addr_npi => 0, destination_addr => 'HERALD',
                esm_class => 0x04, data_coding => 0, short_message => $text, async => 1,
            );
            print "RECEIPT $id $stat\n";
        } else {
            $c->generic_nack(seq => $pdu->{seq}, status => 0x03);    # ESME_RINVCMDID
        }
    }
    close $c;
}
